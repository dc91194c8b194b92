#include "msprobe/compare/python_json.h"

#include <array>
#include <cmath>

#include <fmt/format.h>

#include "msprobe/compare/python_format.h"

namespace msprobe::compare {
namespace {

// Decodes one UTF-8 code point at s[*i]; a malformed byte comes back as itself.
uint32_t NextCodePoint(std::string_view s, size_t* i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(*i);
  const size_t extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  if (extra == 0 || *i + extra >= s.size()) {
    ++*i;
    return c;
  }
  uint32_t cp = c & (0x3F >> extra);
  for (size_t k = 1; k <= extra; ++k) {
    const unsigned char cont = byte(*i + k);
    if ((cont & 0xC0) != 0x80) {
      ++*i;
      return c;
    }
    cp = (cp << 6) | (cont & 0x3F);
  }
  *i += extra + 1;
  return cp;
}

void AppendUtf8(std::string* out, uint32_t cp) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xC0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xE0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::optional<uint32_t> Hex(std::string_view s, size_t at, size_t digits) {
  if (at + digits > s.size()) return std::nullopt;
  uint32_t v = 0;
  for (size_t k = at; k < at + digits; ++k) {
    const char c = s[k];
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return std::nullopt;
    v = v * 16 + static_cast<uint32_t>(d);
  }
  return v;
}

// One Python string literal at text[*i] (quote included); advances past it.
std::optional<std::string> ParsePythonStringLiteral(std::string_view text, size_t* i) {
  const char quote = text[*i];
  std::string out;
  for (size_t k = *i + 1; k < text.size(); ++k) {
    const char c = text[k];
    if (c == quote) {
      *i = k + 1;
      return out;
    }
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++k >= text.size()) return std::nullopt;
    switch (text[k]) {
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'x': case 'u': case 'U': {
        const size_t digits = text[k] == 'x' ? 2 : text[k] == 'u' ? 4 : 8;
        const std::optional<uint32_t> cp = Hex(text, k + 1, digits);
        if (!cp || *cp > 0x10FFFF) return std::nullopt;
        AppendUtf8(&out, *cp);
        k += digits;
        break;
      }
      default: return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

void AppendJsonString(std::string* out, std::string_view s) {
  // Printable ASCII other than '"' and '\\' goes through as it is, looked up rather than tested.
  static constexpr auto kPlain = [] {
    std::array<bool, 256> plain{};
    for (int c = 0x20; c < 0x80; ++c) plain[c] = c != '"' && c != '\\';
    return plain;
  }();
  const auto plain = [](char c) { return kPlain[static_cast<unsigned char>(c)]; };
  *out += '"';
  for (size_t i = 0; i < s.size();) {
    if (plain(s[i])) {  // copy the run of printable ASCII at once
      size_t end = i + 1;
      while (end < s.size() && plain(s[end])) ++end;
      out->append(s.data() + i, end - i);
      i = end;
      continue;
    }
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      switch (c) {
        case '"': *out += "\\\""; break;
        case '\\': *out += "\\\\"; break;
        case '\n': *out += "\\n"; break;
        case '\r': *out += "\\r"; break;
        case '\t': *out += "\\t"; break;
        case '\b': *out += "\\b"; break;
        case '\f': *out += "\\f"; break;
        default: *out += fmt::format("\\u{:04x}", c);
      }
      continue;
    }
    const uint32_t cp = NextCodePoint(s, &i);
    if (cp >= 0x10000) {
      const uint32_t v = cp - 0x10000;
      *out += fmt::format("\\u{:04x}\\u{:04x}", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
    } else {
      *out += fmt::format("\\u{:04x}", cp);
    }
  }
  *out += '"';
}

void PyJsonWriter::Newline(size_t depth) {
  out_ += '\n';
  out_.append(depth * static_cast<size_t>(indent_), ' ');
}

void PyJsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (counts_.empty()) return;
  if (counts_.back()++ > 0) out_ += ',';
  Newline(counts_.size());
}

void PyJsonWriter::Open(char bracket) {
  BeforeValue();
  out_ += bracket;
  counts_.push_back(0);
}

void PyJsonWriter::Close(char bracket) {
  const size_t children = counts_.back();
  counts_.pop_back();
  if (children > 0) Newline(counts_.size());
  out_ += bracket;
}

void PyJsonWriter::Key(std::string_view key) {
  BeforeValue();
  AppendJsonString(&out_, key);
  out_ += ": ";
  after_key_ = true;
}

void PyJsonWriter::String(std::string_view s) {
  BeforeValue();
  AppendJsonString(&out_, s);
}

void PyJsonWriter::Int(int64_t v) {
  BeforeValue();
  fmt::format_to(std::back_inserter(out_), "{}", v);
}

void PyJsonWriter::Float(double v) {
  BeforeValue();
  if (std::isnan(v)) {
    out_ += "NaN";
  } else if (std::isinf(v)) {
    out_ += v > 0 ? "Infinity" : "-Infinity";
  } else {
    char buf[40];
    out_.append(buf, AppendPythonFloatRepr(buf, v));
  }
}

void PyJsonWriter::Bool(bool v) {
  BeforeValue();
  out_ += v ? "true" : "false";
}

void PyJsonWriter::Null() {
  BeforeValue();
  out_ += "null";
}

void PyJsonWriter::Value(const Cell& cell) {
  switch (cell.kind()) {
    case Cell::Kind::kText: String(cell.text()); return;
    case Cell::Kind::kInt: Int(cell.integer()); return;
    case Cell::Kind::kBool: Bool(cell.boolean()); return;
    case Cell::Kind::kFloat: Float(cell.number()); return;
  }
}

void PyJsonWriter::StringList(const std::vector<std::string>& items) {
  BeginArray();
  for (const std::string& item : items) String(item);
  EndArray();
}

std::optional<std::vector<std::string>> ParsePythonStrList(std::string_view text) {
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') return std::nullopt;
  std::vector<std::string> items;
  size_t i = 1;
  const size_t end = text.size() - 1;
  while (i < end) {
    if (text[i] != '\'' && text[i] != '"') return std::nullopt;
    std::optional<std::string> item = ParsePythonStringLiteral(text.substr(0, end), &i);
    if (!item) return std::nullopt;
    items.push_back(std::move(*item));
    if (i == end) break;
    if (text.substr(i, 2) != ", ") return std::nullopt;
    i += 2;
  }
  return items;
}

}  // namespace msprobe::compare
