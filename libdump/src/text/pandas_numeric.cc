#include "msprobe/dump/text/pandas_numeric.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

namespace msprobe {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// 1e0 .. 1e308, each the correctly rounded double, like the literal table pandas uses.
const std::array<double, 309>& PowersOfTen() {
  static const std::array<double, 309> table = [] {
    std::array<double, 309> t{};
    for (int i = 0; i < 309; ++i) t[i] = std::strtod(("1e" + std::to_string(i)).c_str(), nullptr);
    return t;
  }();
  return table;
}

}  // namespace

std::optional<double> PandasToNumeric(std::string_view s) {
  constexpr int kMaxDigits = 17;
  size_t i = 0;
  const size_t n = s.size();
  while (i < n && IsSpace(s[i])) ++i;
  bool negative = false;
  if (i < n && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
  double number = 0;
  int exponent = 0, num_digits = 0;
  for (; i < n && IsDigit(s[i]); ++i) {
    if (num_digits < kMaxDigits) {
      number = number * 10. + (s[i] - '0');
      ++num_digits;
    } else {
      ++exponent;
    }
  }
  bool ok = true;
  if (i < n && s[i] == '.') {
    ++i;
    int num_decimals = 0;
    for (; num_digits < kMaxDigits && i < n && IsDigit(s[i]); ++i, ++num_digits, ++num_decimals) {
      number = number * 10. + (s[i] - '0');
    }
    while (i < n && IsDigit(s[i])) ++i;  // digits past the 17th are dropped
    exponent -= num_decimals;
  }
  if (num_digits == 0) ok = false;
  if (negative) number = -number;
  if (ok && i < n && (s[i] == 'e' || s[i] == 'E')) {
    const size_t e_pos = i++;
    bool exp_negative = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) exp_negative = s[i++] == '-';
    int value = 0, exp_digits = 0;
    for (; exp_digits < kMaxDigits && i < n && IsDigit(s[i]); ++i, ++exp_digits) value = value * 10 + (s[i] - '0');
    exponent += exp_negative ? -value : value;
    if (exp_digits == 0) i = e_pos;  // a bare 'e' is not consumed, so the parse fails below
  }
  if (ok) {
    const auto& p10 = PowersOfTen();
    if (exponent > 308) {
      ok = false;
    } else if (exponent > 0) {
      number *= p10[exponent];
    } else if (exponent < -616) {
      number = 0;
    } else if (exponent < -308) {
      number /= p10[-308 - exponent];
      number /= p10[308];
    } else {
      number /= p10[-exponent];
    }
    if (std::isinf(number)) ok = false;
    while (i < n && IsSpace(s[i])) ++i;
    if (ok && i == n) return number;
  }
  // pandas' fallback spellings of infinity, matched on the whole string.
  const std::string lower = Lower(s);
  if (lower == "inf" || lower == "+inf" || lower == "infinity" || lower == "+infinity") return HUGE_VAL;
  if (lower == "-inf" || lower == "-infinity") return -HUGE_VAL;
  return std::nullopt;
}

}  // namespace msprobe
