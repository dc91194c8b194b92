// A pair compared in memory, in three steps: prepared (both dumps flattened, their rows matched and
// made into result rows), the tensor metrics computed for a slice of rows, and concluded (statistics
// or the slices' metrics, verdicts, the pair's files). One process takes them all for a whole pair;
// the processes sharing a tensor pair (docs/distributed.md §3) each prepare it and compute their
// slice, and the owner concludes with every slice.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "jobs/pair_steps_internal.h"

namespace msprobe::compare::internal {

// A pair flattened, matched and made into its result rows, before the metrics.
struct PreparedPair {
  PairOutcome outcome;
  std::string stack;                   // the stack.json used ("" for none)
  Clock::time_point start;
  FlatDump target, golden;
  std::vector<RowPair> pairs;
  ResultTable table;
  bool skipped = false;                // a side has no rows: nothing to write (outcome says why)
};

// The tensor metrics of rows [begin, end) of a prepared pair, and per row why its file could not
// be read (ok when it could).
struct MetricSlice {
  size_t begin = 0;
  std::vector<std::vector<Cell>> metrics;
  std::vector<Status> unreadable;
  std::vector<std::optional<uint64_t>> target_hashes;  // --attribute: per row, what attribution needs
};

// Safe to use for several pairs at once, as PairSteps.
class PairInMemory {
 public:
  explicit PairInMemory(const PairSteps& steps) : steps_(steps) {}

  Result<PreparedPair> Prepare(const ComparePairSpec& spec) const;
  // `golden`: the golden dump flattened already (by a pair that tried to stream), or nullopt.
  Result<PreparedPair> Prepare(const ComparePairSpec& spec, std::string stack, Clock::time_point start,
                               std::optional<FlatDump> golden) const;
  // Fills the metrics of rows [begin, end) in the prepared rows; the slice says which files were
  // unreadable (its metrics are left empty: they are in the rows).
  MetricSlice ComputeSlice(PreparedPair* prepared, size_t begin, size_t end) const;
  // `slices`: every slice of a tensor pair, in row order (those computed here bring no metrics).
  Result<PairOutcome> Conclude(const ComparePairSpec& spec, PreparedPair prepared,
                               const std::vector<MetricSlice>& slices) const;

 private:
  const PairSteps& steps_;
};

}  // namespace msprobe::compare::internal
