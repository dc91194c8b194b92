// Which json pairs a compare of two paths means (docs/compare.md §1.2, §7; docs/formats.md §4.2).
#pragma once

#include <string>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct ComparePairSpec {
  std::string target_json, golden_json;
  std::string output_dir;  // where this pair's results go
  std::string suffix;      // "" for a file pair, "_rank0" / "_proc1234" for rank dirs
  int rank = 0;            // -da's rank: rank12 → 12; "rank" alone, proc dirs and file pairs → 0
};

struct ComparePairs {
  std::vector<ComparePairSpec> specs;
  // What the two paths hold that pairs with nothing, as msprobe skips it: "RANK_DIR: no dump.json
  // (OTHER_RANK_DIR has one); its rank is not compared", "STEP_DIR: no such step in OTHER_PART; not
  // compared", "PART_DIR: no graph part in OTHER; not compared". Never compared, so no gate may pass
  // over it.
  std::vector<std::string> skipped;
};

// Two files: one pair (both dump.json or both debug.json). Two dirs: graph/pynative mix dirs pair by
// common step dir; step dirs pair their rank dirs by sorted position (or their single proc dirs);
// two rank dirs (holding dump.json/debug.json themselves) pair directly — beyond msprobe.
Result<ComparePairs> ResolveComparePairs(const std::string& target, const std::string& golden,
                                         const std::string& output_dir);

}  // namespace msprobe::compare
