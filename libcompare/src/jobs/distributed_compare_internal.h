// RunCompare over several processes (docs/distributed.md): each compares its share of the pairs and
// writes their files; process 0 gathers what the run's reports need and writes them.
#pragma once

#include "msprobe/compare/jobs/compare_job.h"

namespace msprobe::compare::internal {

// `context.cluster` holds more than one process.
Result<CompareReport> RunDistributedCompare(const CompareOptions& options, const JobContext& context);

}  // namespace msprobe::compare::internal
