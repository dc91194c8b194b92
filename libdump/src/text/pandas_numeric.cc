#include "msprobe/dump/text/pandas_numeric.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "msprobe/dump/text/python_format.h"

namespace msprobe {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

constexpr int kMaxDigits = 17;  // precise_xstrtod's, leading zeros included
constexpr std::array<uint64_t, 20> kPowers = [] {
  std::array<uint64_t, 20> p{1};
  for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}();

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

// precise_xstrtod's last step: the digits read, as a double, times 10^exponent in one multiply or
// divide (two past 10^-308); nullopt past 10^308 or at an infinity.
std::optional<double> Scale(double number, int exponent) {
  const auto& p10 = PowersOfTen();
  if (exponent > 308) return std::nullopt;
  if (exponent > 0) {
    number *= p10[exponent];
  } else if (exponent < -616) {
    number = 0;
  } else if (exponent < -308) {
    number /= p10[-308 - exponent];
    number /= p10[308];
  } else {
    number /= p10[-exponent];
  }
  if (std::isinf(number)) return std::nullopt;
  return number;
}

}  // namespace

std::optional<double> PandasToNumeric(std::string_view s) {
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
    const std::optional<double> scaled = Scale(number, exponent);
    while (i < n && IsSpace(s[i])) ++i;
    if (scaled && i == n) return scaled;
  }
  // pandas' fallback spellings of infinity, matched on the whole string.
  const std::string lower = Lower(s);
  if (lower == "inf" || lower == "+inf" || lower == "infinity" || lower == "+infinity") return HUGE_VAL;
  if (lower == "-inf" || lower == "-infinity") return -HUGE_VAL;
  return std::nullopt;
}

std::optional<double> PandasToNumericOfRepr(double v) {
  if (!std::isfinite(v) || v == 0) return PandasToNumeric(PythonFloatRepr(v));
  const auto [significand, decimal_exponent, count, exp10, positional] = ReprDigitsOf(v);
  // What the parse reads of the text: how many of the digits (17 at most, leading zeros counted),
  // then how many zeros after them, and the power of ten it scales by.
  int kept = count, zeros = 0, exponent = decimal_exponent;
  if (positional && count <= exp10 + 1) {  // "ddd000.0"
    zeros = exp10 + 2 - count;
    exponent = -1;
  } else if (positional && exp10 < 0) {  // "0.000ddd": its -exp10 leading zeros are read as digits
    kept = std::min(count, kMaxDigits + exp10);
    exponent = exp10 + 1 - kept;
  }
  // The digits accumulate one by one in a double; below 2^53 every step is exact, so the integer
  // they make is the whole reading, or as far as it goes the reading of its first digits (15 of
  // them are below 2^53); the rest follow one by one, rounded as pandas rounds them.
  constexpr uint64_t kExact = uint64_t{1} << 53;
  constexpr int kExactDigits = 15;
  double number = 0;
  if (kept == count && significand < kExact / kPowers[zeros]) {
    number = static_cast<double>(significand * kPowers[zeros]);
  } else {
    const int exact = std::min(kept, kExactDigits);
    uint64_t unit = kPowers[count - exact];  // the place of the first digit after them
    number = static_cast<double>(significand / unit);
    for (int k = exact; k < kept; ++k) {
      unit /= 10;
      number = number * 10. + static_cast<double>(significand / unit % 10);
    }
    for (int k = 0; k < zeros; ++k) number = number * 10.;
  }
  return Scale(std::signbit(v) ? -number : number, exponent);
}

}  // namespace msprobe
