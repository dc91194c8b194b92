#include "msprobe/dump/text/python_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace msprobe {
namespace {

std::string PythonStrImpl(const JsonValue& v, bool nested) {
  if (v.IsNull()) return "None";
  if (v.IsBool()) return std::string(PythonBoolStr(v.GetBool()));
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

// open + ", ".join(map(repr, items)) + close: how Python prints a list or a set of str.
std::string JoinReprs(const std::vector<std::string>& items, char open, char close) {
  std::string out(1, open);
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += PythonStrRepr(items[i]);
  }
  return out + close;
}

size_t Copy(char* out, std::string_view s) {
  std::memcpy(out, s.data(), s.size());
  return s.size();
}

}  // namespace

std::string PythonFloatRepr(double v) {
  char out[48];
  return std::string(out, AppendPythonFloatRepr(out, v));
}

PythonReprDigits ReprDigitsOf(double v) {
  // Shortest round-trip digits, the closest to v among them: what repr() and std::to_chars give.
  // fmt's Dragonbox gives them as an integer and a power of ten, with no text to scan back, in
  // about half to_chars' time; a statistics compare formats two dozen doubles per row.
  auto decimal = fmt::detail::dragonbox::to_decimal(std::fabs(v));
  while (decimal.significand % 10 == 0) {
    decimal.significand /= 10;
    ++decimal.exponent;
  }
  const int count = fmt::detail::count_digits(decimal.significand);  // from its bit length, not a loop
  const int exp10 = decimal.exponent + count - 1;
  return {decimal.significand, decimal.exponent, count, exp10, WrittenPositional(exp10)};
}

namespace {

// WriteDecimalDigits, inlined into AppendPythonFloatRepr: the csv writes two dozen numbers a row, and
// the call was 3% of their time.
[[gnu::always_inline]] inline char* LayOutDigits(char* out, uint64_t significand, int exp10, char exponent_mark,
                                                 std::string_view integral_suffix) {
  const fmt::format_int text(significand);
  const char* digits = text.data();
  const size_t count = text.size();
  char* p = out;
  if (!WrittenPositional(exp10)) {  // d.ddde+XX
    *p++ = digits[0];
    if (count > 1) {
      *p++ = '.';
      p += Copy(p, {digits + 1, count - 1});
    }
    *p++ = exponent_mark;
    *p++ = exp10 < 0 ? '-' : '+';
    const fmt::format_int exponent(std::abs(exp10));
    if (exponent.size() < 2) *p++ = '0';
    return p + Copy(p, {exponent.data(), exponent.size()});
  }
  if (exp10 < 0) {  // 0.000ddd
    p += Copy(p, std::string_view("0.000", static_cast<size_t>(1 - exp10)));
    return p + Copy(p, {digits, count});
  }
  const auto int_digits = static_cast<size_t>(exp10 + 1);
  if (count <= int_digits) {  // ddd000, then ".0" for repr
    p += Copy(p, {digits, count});
    std::memset(p, '0', int_digits - count);
    p += int_digits - count;
    return p + Copy(p, integral_suffix);
  }
  p += Copy(p, {digits, int_digits});  // ddd.ddd
  *p++ = '.';
  return p + Copy(p, {digits + int_digits, count - int_digits});
}

}  // namespace

char* WriteDecimalDigits(char* out, uint64_t significand, int exp10, char exponent_mark,
                         std::string_view integral_suffix) {
  return LayOutDigits(out, significand, exp10, exponent_mark, integral_suffix);
}

size_t AppendPythonFloatRepr(char* out, double v) {
  if (std::isnan(v)) return Copy(out, "nan");
  if (std::isinf(v)) return Copy(out, v > 0 ? "inf" : "-inf");
  if (v == 0) return Copy(out, std::signbit(v) ? "-0.0" : "0.0");
  char* p = out;
  if (std::signbit(v)) *p++ = '-';
  const PythonReprDigits repr = ReprDigitsOf(v);
  return static_cast<size_t>(LayOutDigits(p, repr.significand, repr.exp10, 'e', ".0") - out);
}

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

std::string PythonStr(const JsonValue& v) { return PythonStrImpl(v, false); }

std::string PythonTypeStr(const JsonValue* v) {
  const char* name = "dict";
  if (v == nullptr || v->IsNull()) name = "NoneType";
  else if (v->IsBool()) name = "bool";
  else if (v->IsInt64() || v->IsUint64()) name = "int";
  else if (v->IsNumber()) name = "float";
  else if (v->IsString()) name = "str";
  else if (v->IsArray()) name = "list";
  return fmt::format("<class '{}'>", name);
}

bool PythonTruthy(const JsonValue& v) {
  if (v.IsNull()) return false;
  if (v.IsBool()) return v.GetBool();
  if (v.IsInt64()) return v.GetInt64() != 0;
  if (v.IsUint64()) return v.GetUint64() != 0;
  if (v.IsNumber()) return v.GetDouble() != 0;  // NaN is truthy, as in Python
  if (v.IsString()) return v.GetStringLength() != 0;
  if (v.IsArray()) return !v.Empty();
  return v.MemberCount() != 0;
}

std::string PythonListOfStrings(const std::vector<std::string>& items) { return JoinReprs(items, '[', ']'); }

std::string PythonSetOfStrings(const std::vector<std::string>& items) {
  return items.empty() ? "set()" : JoinReprs(items, '{', '}');
}

std::string PythonIntTuple(std::span<const int64_t> ints) {
  if (ints.size() == 1) return fmt::format("({},)", ints[0]);
  return fmt::format("({})", fmt::join(ints, ", "));
}

std::string NumpyShapeStr(const JsonValue* v) {
  std::vector<int64_t> dims;
  while (v != nullptr && v->IsArray()) {
    dims.push_back(static_cast<int64_t>(v->Size()));
    if (v->Empty()) break;
    const JsonValue& first = (*v)[0];
    const bool regular = first.IsArray() && std::all_of(v->Begin(), v->End(), [&](const JsonValue& e) {
      return e.IsArray() && e.Size() == first.Size();
    });
    v = regular ? &first : nullptr;
  }
  return PythonIntTuple(dims);
}

double RoundTo12Decimals(double x) { return PythonRound(x, 12); }

double PythonRound(double x, int ndigits) {
  if (!std::isfinite(x)) return x;
  // glibc's printf rounds the exact binary value half-to-even, as Python's round() and "%.*f" do.
  char buf[512];
  std::snprintf(buf, sizeof(buf), "%.*f", ndigits, x);
  return std::strtod(buf, nullptr);
}

std::vector<std::string_view> PythonSplit(std::string_view s, char sep) {
  std::vector<std::string_view> pieces;
  for (size_t start = 0;;) {
    const size_t at = s.find(sep, start);
    pieces.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return pieces;
    start = at + 1;
  }
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
