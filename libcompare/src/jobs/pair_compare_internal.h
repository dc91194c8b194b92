// A pair compared whole by one process: streamed when its rows allow (the target read in batches
// against the golden rows, docs/compare.md §6.1), else in memory (jobs/pair_in_memory); and a run's
// pairs compared whole on all cores, a few at once.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "jobs/pair_in_memory_internal.h"
#include "jobs/pair_steps_internal.h"

namespace msprobe::compare::internal {

// Safe to use for several pairs at once, as PairSteps.
class PairCompare {
 public:
  explicit PairCompare(const PairSteps& steps) : steps_(steps), in_memory_(steps) {}

  Result<PairOutcome> ComparePair(const ComparePairSpec& spec) const;

 private:
  // The pair streamed, or nullopt when it turns out to need the whole target at once.
  Result<std::optional<PairOutcome>> CompareStreamed(const ComparePairSpec& spec, const std::string& stack,
                                                     Clock::time_point start, FlatDump* golden) const;

  const PairSteps& steps_;
  const PairInMemory in_memory_;
};

// How many pairs of these to compare at once in one process (memory allows two or one).
size_t PairsInFlight(const std::vector<ComparePairSpec>& specs, int processes_on_host);

// One pair compared: its outcome, or the exception it threw.
struct PairAttempt {
  size_t pair = 0;
  Result<PairOutcome> outcome = Status::Internal("", "not run");
  std::exception_ptr exception;
};
// Compares the pairs `order` names on all cores, up to `in_flight` at once, and hands each attempt to
// `consume` in that order. No pair starts once `consume` has failed or a pair has thrown; a pair
// already running still finishes and writes its files. An exception is caught in its pair: escaping
// the pipeline, it would cancel the other pair's nested work half-way, and that pair's files would
// be committed incomplete. Returns consume's first failure.
Status CompareEach(const PairCompare& compare, const std::vector<ComparePairSpec>& specs,
                   const std::vector<size_t>& order, size_t in_flight,
                   const std::function<Status(PairAttempt)>& consume);

}  // namespace msprobe::compare::internal
