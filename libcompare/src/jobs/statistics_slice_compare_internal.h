// A statistics pair compared in slices by the processes sharing it (docs/distributed.md §3), each
// slice planned by the owner (jobs/statistics_slices): every process compares its own slice in
// batches of finished rows; the owner appends every slice's rows in slice order (another process's made
// ready for the outputs where they were compared, PairOutputsPart) and concludes, or compares the pair
// whole when the slices cannot stand for it.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>

#include "jobs/pair_compare_internal.h"
#include "jobs/pair_steps_internal.h"
#include "jobs/statistics_slices_internal.h"

namespace msprobe::compare::internal {

// What a slice read besides its rows: how many golden rows, whether an entry held md5 summaries, and
// the golden rows its target rows did not match (each golden entry is read by one slice only).
struct SliceRead {
  size_t golden_rows = 0;
  bool md5 = false;
  uint64_t unmatched_golden = 0;
  std::string first_unmatched;         // the first one's name
  uint64_t first_unmatched_at = 0;     // where its entry begins in the golden json: the slices' order
};
// The owner's outputs of a split statistics pair, fed every slice's batches in slice order.
struct SlicedOutputs {
  std::optional<PairOutputs> outputs;  // opened with the first rows
  SliceRead read;                      // what the slices so far read, summed
  bool whole = false;                  // a slice failed: the pair is compared whole instead
  // What a slice read, added to the pair's.
  void Count(const SliceRead& slice);
};

// Safe to use for several pairs at once, as PairSteps.
class StatisticsSliceCompare {
 public:
  explicit StatisticsSliceCompare(const PairSteps& steps) : steps_(steps), whole_(steps) {}

  // This process's slice, in batches of finished rows handed to `batch` in order; and what else it read.
  Result<SliceRead> CompareSlice(const ComparePairSpec& spec, const StatisticsSlice& slice,
                                 const std::function<Status(const SliceTable&)>& batch) const;
  // The owner: a batch of any slice, in slice order. `own`: the owner's slice.
  Status AppendSlice(const ComparePairSpec& spec, const StatisticsSlice& own, const SliceTable& batch,
                     SlicedOutputs* sliced) const;
  // The owner: another slice's rows, made ready for the outputs where it was compared (RowsRenderApart).
  Status AppendSlice(const ComparePairSpec& spec, const StatisticsSlice& own, const PairOutputsPart& part,
                     SlicedOutputs* sliced) const;
  // The owner, once every slice is appended: the pair's outcome; or the pair compared whole when a
  // slice failed (the whole compare reports the error one process would), the golden dump has no
  // rows, md5 summaries the plan did not see, or -da's API batches run over two entries.
  // `start`: when the pair began.
  Result<PairOutcome> ConcludeSlices(const ComparePairSpec& spec, const StatisticsSlice& own, SlicedOutputs sliced,
                                     Clock::time_point start) const;

 private:
  const PairSteps& steps_;
  const PairCompare whole_;
};

}  // namespace msprobe::compare::internal
