#include "report/json_text_internal.h"

#include <fmt/format.h>

#include <charconv>
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
  char digits[32];
  out->append(digits, std::to_chars(digits, digits + sizeof digits, value, std::chars_format::general, 6).ptr);
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
