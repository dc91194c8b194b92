// The merge config YAML of msprobe merge_result (docs/formats.md §5.4), with its checks and messages:
//   api: [Distributed.all_reduce, ...]        required, a non-empty list of name prefixes
//   compare_index: [Max diff, ...]            optional list; empty or missing: every index of the mode
//   highlight_factor: 10                      ours, optional: see merge_writer.h (a number > 1)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

inline constexpr double kDefaultHighlightFactor = 10;

struct MergeConfig {
  std::vector<std::string> apis;
  std::vector<std::string> compare_index;  // duplicates removed, first kept (msprobe keys them by name)
  double highlight_factor = kDefaultHighlightFactor;
};

// Reads `path`, which must end in ".yaml" as msprobe requires. Errors carry msprobe's messages
// ("config.yaml is empty, please check.", "The APIs required to merge data were not found.", …).
Result<MergeConfig> LoadMergeConfig(const std::string& path);
// The same checks on YAML text; `source` names it in messages.
Result<MergeConfig> ParseMergeConfig(std::string_view yaml, const std::string& source);

}  // namespace msprobe::compare
