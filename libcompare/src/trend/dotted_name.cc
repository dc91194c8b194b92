#include "trend/dotted_name_internal.h"

namespace msprobe::compare::internal {

std::vector<std::string_view> SplitDots(std::string_view name) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t dot = name.find('.'); dot != std::string_view::npos; dot = name.find('.', start)) {
    parts.push_back(name.substr(start, dot - start));
    start = dot + 1;
  }
  parts.push_back(name.substr(start));
  return parts;
}

std::string JoinDots(std::span<const std::string_view> parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += '.';
    out += parts[i];
  }
  return out;
}

}  // namespace msprobe::compare::internal
