#include "report/json_text_internal.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cstdlib>
#include <cmath>
#include <iterator>

namespace msprobe::compare::internal {
namespace {

template <class T, class AppendOne>
void AppendArray(const std::vector<T>& values, std::string* out, AppendOne append) {
  out->push_back('[');
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out->push_back(',');
    append(values[i]);
  }
  out->push_back(']');
}

// Integers and numbers are formatted into a stack buffer by to_chars, then appended: a million-row
// column is formatted several times faster than by fmt through a back_insert_iterator.
template <class Int>
void AppendInts(const std::vector<Int>& values, std::string* out) {
  AppendArray(values, out, [out](Int v) {
    char digits[24];
    out->append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
  });
}

// 10^0 .. 10^kMaxPow10, each correctly rounded (exact up to 10^22).
constexpr int kMaxPow10 = 300;
double Pow10(int k) {
  static const std::array<double, kMaxPow10 + 1> table = [] {
    std::array<double, kMaxPow10 + 1> t{};
    for (int i = 0; i <= kMaxPow10; ++i) t[i] = std::strtod(("1e" + std::to_string(i)).c_str(), nullptr);
    return t;
  }();
  return table[k];
}

}  // namespace

void AppendJsonString(std::string_view text, std::string* out) {
  out->push_back('"');
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      case '<': case '>': case '&': fmt::format_to(std::back_inserter(*out), "\\u{:04x}", c); break;
      default:
        if (c < 0x20) {
          fmt::format_to(std::back_inserter(*out), "\\u{:04x}", c);
        } else if (c == 0xE2 && i + 2 < text.size() && text[i + 1] == '\x80' && (text[i + 2] == '\xA8' || text[i + 2] == '\xA9')) {
          *out += text[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";  // valid UTF-8 (refused otherwise at parse)
          i += 2;
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back('"');
}

void AppendJsonNumber(double value, std::string* out) {
  if (!std::isfinite(value)) {
    *out += "null";
    return;
  }
  if (value == 0) {
    out->push_back('0');
    return;
  }
  if (value < 0) {
    out->push_back('-');
    value = -value;
  }
  // As a 6-digit integer and a power of ten, "123457e-8" (a JSON number): integer arithmetic formats a
  // million-row column several times faster than %g. The last digit may differ from %g's on a tie.
  int exponent = static_cast<int>(std::floor(std::log10(value))) - 5;
  if (exponent < -kMaxPow10 || exponent > kMaxPow10) {  // beyond the table: subnormals, near DBL_MAX
    char digits[32];
    out->append(digits, std::to_chars(digits, digits + sizeof digits, value, std::chars_format::general, 6).ptr);
    return;
  }
  const double scaled = exponent >= 0 ? value / Pow10(exponent) : value * Pow10(-exponent);
  auto mantissa = static_cast<int64_t>(std::llround(scaled));
  if (mantissa >= 1000000) {  // log10 rounded down across a power of ten
    mantissa = (mantissa + 5) / 10;
    ++exponent;
  }
  while (mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  char digits[24];
  out->append(digits, std::to_chars(digits, digits + sizeof digits, mantissa).ptr);
  if (exponent != 0) {
    out->push_back('e');
    out->append(digits, std::to_chars(digits, digits + sizeof digits, exponent).ptr);
  }
}

void AppendJsonArray(const std::vector<uint32_t>& values, std::string* out) { AppendInts(values, out); }
void AppendJsonArray(const std::vector<uint8_t>& values, std::string* out) { AppendInts(values, out); }
void AppendJsonArray(const std::vector<int32_t>& values, std::string* out) { AppendInts(values, out); }
void AppendJsonArray(const std::vector<double>& values, std::string* out) {
  AppendArray(values, out, [out](double v) { AppendJsonNumber(v, out); });
}
void AppendJsonArray(const std::vector<std::string>& values, std::string* out) {
  AppendArray(values, out, [out](const std::string& v) { AppendJsonString(v, out); });
}

}  // namespace msprobe::compare::internal
