// The tags data2db gives a target from its name (docs/trend.md §9), by which the trend view filters:
// for dump targets "default" (Module, Cell), "layer" ("layers.0"), "module", "function" and "index"
// ("input.0"); for monitor targets "module" and "layer" only. Each list holds a tag once, in the
// order its parts appear in the name: the order our databases insert tags in (msprobe's comes from a
// Python set and changes from run to run).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace msprobe::compare::internal {

struct TrendTag {
  std::string name;
  std::string_view category;  // "default", "index", "layer", "module" or "function"
  bool operator==(const TrendTag&) const = default;
};

std::vector<TrendTag> DumpTargetTags(std::string_view target_name);
std::vector<TrendTag> MonitorTargetTags(std::string_view target_name);

}  // namespace msprobe::compare::internal
