// A statistics pair compared in slices by the processes sharing it (docs/distributed.md §3), each
// slice planned by the owner (jobs/statistics_slices): every process compares its own slice in
// batches of finished rows; the owner appends every slice's batches in slice order and concludes, or
// compares the pair whole when the slices cannot stand for it.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>

#include "jobs/pair_compare_internal.h"
#include "jobs/pair_steps_internal.h"
#include "jobs/statistics_slices_internal.h"

namespace msprobe::compare::internal {

// What a slice read besides its rows: how many golden rows, and whether an entry held md5 summaries.
struct SliceRead {
  size_t golden_rows = 0;
  bool md5 = false;
};
// The owner's outputs of a split statistics pair, fed every slice's batches in slice order.
struct SlicedOutputs {
  std::optional<PairOutputs> outputs;  // opened with the first rows
  size_t golden_rows = 0;              // read by the slices so far
  bool md5 = false;                    // a slice read md5 summaries
  bool whole = false;                  // a slice failed: the pair is compared whole instead
  // What a slice read, added to the pair's.
  void Count(const SliceRead& read) {
    golden_rows += read.golden_rows;
    md5 = md5 || read.md5;
  }
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
