#include "msprobe/dump/text/python_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace msprobe {
namespace {

// repr() of a Python str: single quotes unless the text holds ' and no ".
std::string PythonStrRepr(std::string_view s) {
  const char quote = (s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos) ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == static_cast<unsigned char>(quote)) { out += '\\'; out += static_cast<char>(c); }
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", c);
    else out += static_cast<char>(c);  // UTF-8 bytes of printable characters stay as they are
  }
  out += quote;
  return out;
}

std::string PythonStrImpl(const JsonValue& v, bool nested) {
  if (v.IsNull()) return "None";
  if (v.IsBool()) return v.GetBool() ? "True" : "False";
  if (v.IsInt64()) return std::to_string(v.GetInt64());
  if (v.IsUint64()) return std::to_string(v.GetUint64());
  if (v.IsNumber()) return PythonFloatRepr(v.GetDouble());
  if (v.IsString()) {
    const std::string_view s(v.GetString(), v.GetStringLength());
    return nested ? PythonStrRepr(s) : std::string(s);
  }
  std::string out;
  if (v.IsArray()) {
    out = "[";
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      if (i) out += ", ";
      out += PythonStrImpl(v[i], true);
    }
    return out + "]";
  }
  out = "{";
  bool first = true;
  for (const auto& m : v.GetObject()) {
    if (!first) out += ", ";
    first = false;
    out += PythonStrRepr({m.name.GetString(), m.name.GetStringLength()}) + ": " + PythonStrImpl(m.value, true);
  }
  return out + "}";
}

size_t Copy(char* out, std::string_view s) {
  std::memcpy(out, s.data(), s.size());
  return s.size();
}

// Appends \uXXXX for one UTF-16 code unit.
void AppendU16(std::string* out, unsigned unit) { *out += fmt::format("\\u{:04x}", unit); }

}  // namespace

std::string PythonFloatRepr(double v) {
  char out[48];
  return std::string(out, AppendPythonFloatRepr(out, v));
}

size_t AppendPythonFloatRepr(char* out, double v) {
  if (std::isnan(v)) return Copy(out, "nan");
  if (std::isinf(v)) return Copy(out, v > 0 ? "inf" : "-inf");
  if (v == 0) return Copy(out, std::signbit(v) ? "-0.0" : "0.0");
  // Shortest round-trip digits in scientific form "[-]d[.ddd]e±XX", then laid out as repr does.
  char sci[40];
  const char* end = std::to_chars(sci, sci + sizeof(sci), v, std::chars_format::scientific).ptr;
  const char* p = sci;
  size_t n = 0;
  if (*p == '-') out[n++] = *p++;
  char digits[20];
  size_t count = 0;
  for (; *p != 'e'; ++p) {
    if (*p != '.') digits[count++] = *p;
  }
  ++p;  // 'e'
  const bool negative_exp = *p == '-';
  ++p;  // sign
  int exp10 = 0;
  for (; p < end; ++p) exp10 = exp10 * 10 + (*p - '0');
  if (negative_exp) exp10 = -exp10;
  if (exp10 >= -4 && exp10 < 16) {
    if (exp10 < 0) {
      out[n++] = '0';
      out[n++] = '.';
      for (int i = 0; i < -exp10 - 1; ++i) out[n++] = '0';
      for (size_t i = 0; i < count; ++i) out[n++] = digits[i];
    } else {
      const auto int_digits = static_cast<size_t>(exp10 + 1);
      for (size_t i = 0; i < int_digits; ++i) out[n++] = i < count ? digits[i] : '0';
      out[n++] = '.';
      if (count <= int_digits) out[n++] = '0';
      for (size_t i = int_digits; i < count; ++i) out[n++] = digits[i];
    }
    return n;
  }
  out[n++] = digits[0];
  if (count > 1) {
    out[n++] = '.';
    for (size_t i = 1; i < count; ++i) out[n++] = digits[i];
  }
  out[n++] = 'e';
  out[n++] = exp10 < 0 ? '-' : '+';
  const int e = std::abs(exp10);
  if (e >= 100) out[n++] = static_cast<char>('0' + e / 100);
  out[n++] = static_cast<char>('0' + (e / 10) % 10);
  out[n++] = static_cast<char>('0' + e % 10);
  return n;
}

std::string PythonStr(const JsonValue& v) { return PythonStrImpl(v, false); }

std::string JsonDumpsStrings(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += '"';
    const std::string& s = items[i];
    for (size_t k = 0; k < s.size();) {
      const auto c = static_cast<unsigned char>(s[k]);
      if (c < 0x80) {
        if (c == '"') out += "\\\"";
        else if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (c == '\b') out += "\\b";
        else if (c == '\f') out += "\\f";
        else if (c < 0x20 || c == 0x7f) AppendU16(&out, c);
        else out += static_cast<char>(c);
        ++k;
        continue;
      }
      // Decode one UTF-8 sequence; ensure_ascii writes it as \uXXXX (a surrogate pair past U+FFFF).
      const int len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
      unsigned cp = len == 1 ? c : c & (0xff >> (len + 1));
      for (int j = 1; j < len && k + j < s.size(); ++j) cp = (cp << 6) | (static_cast<unsigned char>(s[k + j]) & 0x3f);
      if (cp >= 0x10000) {
        cp -= 0x10000;
        AppendU16(&out, 0xd800 + (cp >> 10));
        AppendU16(&out, 0xdc00 + (cp & 0x3ff));
      } else {
        AppendU16(&out, cp);
      }
      k += static_cast<size_t>(len);
    }
    out += '"';
  }
  return out + "]";
}

std::string PythonListOfStrings(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += PythonStrRepr(items[i]);
  }
  return out + "]";
}

double RoundTo12Decimals(double x) { return PythonRound(x, 12); }

double PythonRound(double x, int ndigits) {
  if (!std::isfinite(x)) return x;
  // glibc's printf rounds the exact binary value half-to-even, as Python's round() and "%.*f" do.
  char buf[512];
  std::snprintf(buf, sizeof(buf), "%.*f", ndigits, x);
  return std::strtod(buf, nullptr);
}

std::string PythonReplace(std::string_view s, std::string_view old, std::string_view replacement,
                          int count) {
  std::string out;
  size_t pos = 0;
  for (int done = 0; count < 0 || done < count; ++done) {
    const size_t hit = s.find(old, pos);
    if (hit == std::string_view::npos) break;
    out.append(s.substr(pos, hit - pos)).append(replacement);
    if (old.empty()) {
      // Python inserts between characters; step over one so the scan advances.
      if (hit == s.size()) { pos = hit + 1; break; }
      out += s[hit];
      pos = hit + 1;
    } else {
      pos = hit + old.size();
    }
  }
  if (pos < s.size()) out.append(s.substr(pos));
  return out;
}

}  // namespace msprobe
