// Names of dump keys and targets are dotted ("Module.layer1.0.conv1.Conv2d.forward.0"); data2db's
// rules read them part by part, as Python's str.split('.') and '.'.join make them.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::compare::internal {

// "a..b" gives "a", "", "b"; "" gives one empty part, as Python's split does.
std::vector<std::string_view> SplitDots(std::string_view name);
std::string JoinDots(std::span<const std::string_view> parts);

}  // namespace msprobe::compare::internal
