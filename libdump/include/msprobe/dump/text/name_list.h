// A short list of names for a one-line message: "a, b, c, …".
#pragma once

#include <string>
#include <vector>

namespace msprobe {

// The first `shown` of `names` joined by ", ", and an ellipsis for the rest.
std::string ListNames(const std::vector<std::string>& names, size_t shown = 4);

}  // namespace msprobe
