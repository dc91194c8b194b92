#include "jobs/statistics_slice_compare_internal.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "msprobe/compare/rows/match.h"

namespace msprobe::compare::internal {

Result<SliceRead> StatisticsSliceCompare::CompareSlice(const ComparePairSpec& spec, const StatisticsSlice& slice,
                                                       const std::function<Status(const SliceTable&)>& batch) const {
  bool golden_md5 = false, target_md5 = false;
  std::vector<OpRow> bench;
  MSP_RETURN_IF_ERROR(StreamFlatEntries(spec.golden_json, "", slice.golden_header, slice.golden.entries,
                                        slice.golden.orders, SIZE_MAX,
                                        [&](const FlatDump&, std::vector<OpRow>* rows) {
                                          bench = std::move(*rows);
                                          return Status::Ok();
                                        },
                                        &golden_md5));
  std::optional<MatchOptions> match;
  std::optional<BenchMatcher> matcher;
  const std::string stack = steps_.StackOf(spec);
  // The target's rows in batches, as a streamed pair compares them: memory holds one batch of them.
  MSP_RETURN_IF_ERROR(StreamFlatEntries(
      spec.target_json, stack, slice.target_header, slice.target.entries, slice.target.orders,
      steps_.options().stream_batch_rows,
      [&](const FlatDump& header, std::vector<OpRow>* rows) {
        if (!matcher) {
          FlatDump bench_header;
          bench_header.framework = slice.golden_header.framework;
          match = steps_.PairMatchOptions(header, bench_header);
          matcher.emplace(bench, *match);
        }
        return batch(steps_.CompareBatch(rows, &bench, *matcher, slice.mode, !stack.empty()));
      },
      &target_md5));
  return SliceRead{bench.size(), golden_md5 || target_md5};
}

Status StatisticsSliceCompare::AppendSlice(const ComparePairSpec& spec, const StatisticsSlice& own,
                                           const SliceTable& batch, SlicedOutputs* sliced) const {
  if (batch.table.rows.empty()) return Status::Ok();
  if (!sliced->outputs) {
    sliced->outputs.emplace(steps_.OpenOutputs(spec, ReadsAsDebugJson(spec.target_json, own.target_header.level)));
  }
  return sliced->outputs->Append(batch.table, batch.p2p);
}

Result<PairOutcome> StatisticsSliceCompare::ConcludeSlices(const ComparePairSpec& spec, const StatisticsSlice& own,
                                                           SlicedOutputs sliced, Clock::time_point start) const {
  // Outputs not finished are dropped, never committed.
  if (sliced.whole || sliced.golden_rows == 0 || (own.md5_unseen && sliced.md5) || !sliced.outputs ||
      sliced.outputs->split_api() || sliced.outputs->ints_as_floats()) {
    return whole_.ComparePair(spec);
  }
  PairOutcome outcome = NewOutcome(spec);
  MSP_RETURN_IF_ERROR(FinishStreamed(std::move(*sliced.outputs), own.mode, start, &outcome));
  return outcome;
}

}  // namespace msprobe::compare::internal
