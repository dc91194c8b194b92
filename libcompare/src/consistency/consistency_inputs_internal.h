// What `msprobe-dump consistency` reads (docs/consistency.md §1): the rank*/ (and proc*/) dumps of a
// step folder, or of every step*/ of a dump root, found as data2db finds them (trend/dump_scan).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "msprobe/dump/util/job_context.h"
#include "msprobe/dump/util/status.h"
#include "trend/dump_scan_internal.h"

namespace msprobe::compare::internal {

struct ConsistencyStep {
  int64_t step = 0;                // the step<N> folder's N; a step folder named otherwise is step 0
  std::vector<TrendRankDir> ranks;  // by rank
};

// Errors, each saying what was found and what to give: no such directory, a file, a single rank's
// folder, a folder with no rank dumps below it, no step with two ranks or more. Rank folders without
// their dump.json are told to `warn` and added to `without_dump_json`.
Result<std::vector<ConsistencyStep>> FindConsistencySteps(const std::string& input, const Warn& warn,
                                                          std::vector<std::string>* without_dump_json);

}  // namespace msprobe::compare::internal
