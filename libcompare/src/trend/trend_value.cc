#include "trend/trend_value_internal.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace msprobe::compare::internal {
namespace {

constexpr double kLimit = 1e9;  // msprobe's MAX_FLOAT_VALUE; MIN_FLOAT_VALUE is its negative

// Python's str.strip() whitespace, in ASCII (int() and float() strip the same set).
bool IsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f'); }

std::string_view Strip(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Appends the digits of a run like "1_000" to `out`: digits with single underscores between them.
// Returns the rest of `s`, or nullopt when the run is malformed; an empty run is allowed.
std::optional<std::string_view> TakeDigits(std::string_view s, std::string* out) {
  size_t i = 0;
  while (i < s.size() && (IsDigit(s[i]) || s[i] == '_')) {
    if (s[i] == '_') {
      if (i == 0 || !IsDigit(s[i - 1]) || i + 1 >= s.size() || !IsDigit(s[i + 1])) return std::nullopt;
    } else {
      out->push_back(s[i]);
    }
    ++i;
  }
  return s.substr(i);
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x | 0x20) == y;  // `b` is lower-case letters
         });
}

}  // namespace

std::optional<int64_t> PythonInt(std::string_view text) {
  std::string_view s = Strip(text);
  std::string digits;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    if (s.front() == '-') digits.push_back('-');
    s.remove_prefix(1);
  }
  const std::optional<std::string_view> rest = TakeDigits(s, &digits);
  if (!rest || !rest->empty() || digits.empty() || digits == "-") return std::nullopt;
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

std::optional<double> PythonFloat(std::string_view text) {
  std::string_view s = Strip(text);
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (EqualsIgnoringCase(s, "inf") || EqualsIgnoringCase(s, "infinity")) {
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  }
  if (EqualsIgnoringCase(s, "nan")) return std::numeric_limits<double>::quiet_NaN();
  std::string number;
  std::optional<std::string_view> rest = TakeDigits(s, &number);
  size_t mantissa_digits = number.size();
  if (rest && !rest->empty() && rest->front() == '.') {
    number.push_back('.');
    const size_t before = number.size();
    rest = TakeDigits(rest->substr(1), &number);
    mantissa_digits += number.size() - before;
  }
  if (!rest || mantissa_digits == 0) return std::nullopt;
  if (!rest->empty() && (rest->front() == 'e' || rest->front() == 'E')) {
    number.push_back('e');
    std::string_view exponent = rest->substr(1);
    if (!exponent.empty() && (exponent.front() == '+' || exponent.front() == '-')) {
      number.push_back(exponent.front());
      exponent.remove_prefix(1);
    }
    const size_t before = number.size();
    rest = TakeDigits(exponent, &number);
    if (!rest || number.size() == before) return std::nullopt;
  }
  if (!rest->empty()) return std::nullopt;
  double value = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec == std::errc::result_out_of_range) {
    value = std::strtod(number.c_str(), nullptr);  // ±inf or 0, as Python's float() gives
  } else if (ec != std::errc()) {
    return std::nullopt;
  }
  return negative ? -value : value;
}

bool AllDigits(std::string_view text) { return !text.empty() && std::all_of(text.begin(), text.end(), IsDigit); }

std::optional<double> TrendValue(double value) {
  if (std::isnan(value)) return std::nullopt;
  if (std::isinf(value)) return value > 0 ? kLimit + 1 : -kLimit - 1;
  return std::clamp(value, -kLimit, kLimit);
}

std::optional<double> TrendValue(const JsonValue* value) {
  if (value == nullptr) return std::nullopt;
  if (value->IsNumber()) return TrendValue(value->GetDouble());
  if (value->IsBool()) return value->GetBool() ? 1.0 : 0.0;
  if (value->IsString()) {
    const std::optional<double> number = PythonFloat({value->GetString(), value->GetStringLength()});
    return number ? TrendValue(*number) : std::nullopt;
  }
  return std::nullopt;
}

bool IsMissingCell(std::string_view cell) {
  // pandas.read_csv's default missing-value words, matched exactly.
  static constexpr std::array<std::string_view, 19> kMissing = {
      "",     "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
      "<NA>", "N/A",  "NA",       "NULL", "NaN",   "None",     "n/a",  "nan",  "null"};
  return std::find(kMissing.begin(), kMissing.end(), cell) != kMissing.end();
}

std::optional<double> TrendValueOfCell(std::string_view cell) {
  if (IsMissingCell(cell)) return std::nullopt;
  const std::optional<double> number = PythonFloat(cell);
  return number ? TrendValue(*number) : std::nullopt;
}

}  // namespace msprobe::compare::internal
