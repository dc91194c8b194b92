// A compare run's output places, made ready before any input is read (docs/compare.md §1.5): a mistake
// in -o or --junit fails in a second, not after the whole compare.
#pragma once

#include <string>
#include <vector>

#include "msprobe/compare/jobs/compare_job.h"

namespace msprobe::compare::internal {

// Checks that -o and --junit land outside `inputs`, creates -o and the folders --junit's file goes in,
// and checks that both can be written. One-line errors name the path and what to do.
Status PrepareRunOutputs(const CompareOptions& options, const std::vector<std::string>& inputs);

}  // namespace msprobe::compare::internal
