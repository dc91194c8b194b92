// A statistics pair shared by rows among processes (docs/distributed.md §3). Its cost is parsing two
// dump.json files, so each process parses only its part of each: the owner outlines both dumps
// (where each entry lies, OutlineDumpJson), gives each process a contiguous range of target entries
// with the golden entries their rows can match, and writes the slices' finished rows in order
// (CompareRun::CompareSlice, ConcludeSlices).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "jobs/compare_run_internal.h"

namespace msprobe::compare::internal {

// The pair's `slices` slices, or nullopt when the outline cannot settle that they stand for the whole
// compare, which one process then does: a file that does not outline, a header member after "data"
// that changes how entries read, md5 summaries not told by the first entries, a check the headers
// fail, a key twice in the target, or keys whose rows could match across entries.
std::optional<std::vector<StatisticsSlice>> PlanStatisticsSlices(const CompareOptions& options,
                                                                 const ComparePairSpec& spec, size_t slices);

}  // namespace msprobe::compare::internal
