// JSON text for a <script> element of the HTML report. Names come from user dumps, so every string is
// escaped for both JSON and HTML: '<', '>' and '&' as \u escapes (no "</script>" or "<!--" can end
// the element early), and U+2028/U+2029 too, which older JavaScript parsers took for line ends.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::compare::internal {

void AppendJsonString(std::string_view text, std::string* out);
// Six significant digits, as the page shows them (the csv and xlsx keep every digit), written as a
// mantissa and exponent ("123457e-8"); NaN and infinities, which JSON has not, as null.
void AppendJsonNumber(double value, std::string* out);

// [a,b,c] of numbers or strings.
void AppendJsonArray(const std::vector<uint32_t>& values, std::string* out);
void AppendJsonArray(const std::vector<uint8_t>& values, std::string* out);
void AppendJsonArray(const std::vector<int32_t>& values, std::string* out);
void AppendJsonArray(const std::vector<double>& values, std::string* out);
void AppendJsonArray(const std::vector<std::string>& values, std::string* out);

}  // namespace msprobe::compare::internal
