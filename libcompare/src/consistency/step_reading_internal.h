// How a step's ranks are read for the checks (docs/consistency.md §2, docs/distributed.md §9): on one
// process's cores, or shared among the processes of an MPI run, each reading every N-th rank and
// process 0 taking them in, one step at a time. Either way the values reach the checks in rank order,
// and a dump that fails stops the step with the failure one process would meet first.
#pragma once

#include <functional>

#include "consistency/consistency_inputs_internal.h"
#include "consistency/rank_values_internal.h"
#include "msprobe/dump/util/cluster.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

using ConsumeRank = std::function<void(RankValues&&)>;

// The step's ranks read on all cores, each handed to `consume` in rank order; two ranks per worker
// in flight bound memory. Stops at the first rank (in rank order) that fails, with its error.
Status ReadStepInOrder(const ConsistencyStep& step, const RankReadOptions& options, const ConsumeRank& consume);

// Collective: every process reads its share (the step's i-th rank when i % N is its number) and sends
// it to process 0, where `consume` takes the ranks in rank order. Process 0's status on every process:
// they all go on to the next step, or all stop together.
Status ReadStepSpread(Cluster& cluster, const ConsistencyStep& step, const RankReadOptions& options,
                      const ConsumeRank& consume);

}  // namespace msprobe::compare::internal
