#include "msprobe/dump/text/python_parse.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "msprobe/dump/text/utf8.h"

namespace msprobe {
namespace {

// What float() and int() strip around the number, as far as ASCII goes.
constexpr std::string_view kAsciiBlanks = " \t\n\r\f\v";

std::string_view StripBlanks(std::string_view s) {
  const size_t first = s.find_first_not_of(kAsciiBlanks);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kAsciiBlanks) - first + 1);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool EqualsIgnoreCase(std::string_view s, std::string_view lower) {
  if (s.size() != lower.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i] >= 'A' && s[i] <= 'Z' ? static_cast<char>(s[i] - 'A' + 'a') : s[i];
    if (c != lower[i]) return false;
  }
  return true;
}

// Digits with single '_' between them (PEP 515) at s[*i], appended to `out` (when given) without
// the '_'; advances `i`. False when no digit is there.
bool TakeDigits(std::string_view s, size_t* i, std::string* out) {
  if (*i >= s.size() || !IsDigit(s[*i])) return false;
  while (*i < s.size()) {
    if (IsDigit(s[*i])) {
      if (out != nullptr) *out += s[*i];
      ++*i;
    } else if (s[*i] == '_' && *i + 1 < s.size() && IsDigit(s[*i + 1])) {
      ++*i;
    } else {
      break;
    }
  }
  return true;
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
        AppendUtf8(*cp, &out);
        k += digits;
        break;
      }
      default: return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> PythonFloat(std::string_view s) {
  s = StripBlanks(s);
  const std::string_view with_sign = s;
  const bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  const double sign = negative ? -1.0 : 1.0;
  if (EqualsIgnoreCase(s, "inf") || EqualsIgnoreCase(s, "infinity")) return sign * HUGE_VAL;
  if (EqualsIgnoreCase(s, "nan")) return std::copysign(NAN, sign);
  // Python's grammar, checked here: from_chars alone would also take "1e" (as 1) or "infinity".
  size_t i = 0;
  const bool int_part = TakeDigits(s, &i, nullptr);
  bool frac_part = false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    frac_part = TakeDigits(s, &i, nullptr);
  }
  if (!int_part && !frac_part) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!TakeDigits(s, &i, nullptr)) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  // What from_chars reads: the text without a '+' and without its '_'.
  std::string literal;
  std::string_view text = negative ? with_sign : s;
  if (s.find('_') != std::string_view::npos) {
    literal = negative ? "-" : "";
    for (const char c : s) {
      if (c != '_') literal += c;
    }
    text = literal;
  }
  // Both round correctly; from_chars takes a fifth of strtod's time, which the verdicts, reading back
  // every relative error, felt. Past the range it leaves the value to us: strtod's ±HUGE_VAL, or 0.
  double v = 0;
  if (std::from_chars(text.data(), text.data() + text.size(), v).ec == std::errc()) return v;
  return std::strtod(std::string(text).c_str(), nullptr);
}

std::optional<int64_t> PythonInt(std::string_view s) {
  s = StripBlanks(s);
  const bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  std::string literal = negative ? "-" : "";
  size_t i = 0;
  if (!TakeDigits(s, &i, &literal) || i != s.size()) return std::nullopt;
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(literal.data(), literal.data() + literal.size(), v);
  if (ec != std::errc() || end != literal.data() + literal.size()) return std::nullopt;
  return v;
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

}  // namespace msprobe
