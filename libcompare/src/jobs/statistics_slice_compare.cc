#include "jobs/statistics_slice_compare_internal.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "jobs/pair_rules_internal.h"
#include "msprobe/compare/rows/golden_row_use.h"
#include "msprobe/compare/rows/match.h"

namespace msprobe::compare::internal {
namespace {

// The golden rows of a slice its target rows did not match, and the first of them with where its entry
// begins.
void CountUnmatched(const StatisticsSlice& slice, const std::vector<OpRow>& golden, const GoldenRowUse& use,
                    SliceRead* read) {
  read->unmatched_golden = use.Unmatched();
  const std::optional<size_t> first = use.FirstUnmatched();
  if (!first) return;
  read->first_unmatched = golden[*first].name;
  for (const JsonMemberSpan& entry : slice.golden.entries) {
    if (entry.key == golden[*first].api) {
      read->first_unmatched_at = entry.begin;
      break;
    }
  }
}

// A slice's progress: the bytes of its target entries read, of the target dump.json's, so that the
// slices of a pair fill its share together (docs/compare.md §7.5). A batch holds whole entries.
class SliceProgress {
 public:
  SliceProgress(const Progress& progress, const ComparePairSpec& spec, const EntrySlice& target)
      : progress_(progress), label_(spec.target_json), entries_(target.entries) {
    std::error_code ec;
    if (progress_) json_bytes_ = std::filesystem::file_size(label_, ec);
    if (ec) json_bytes_ = 0;
  }
  // After a batch: its last row's entry and those before it are read.
  void Read(const std::vector<OpRow>& batch) {
    if (json_bytes_ == 0 || batch.empty() || entries_.empty()) return;
    while (next_ < entries_.size() && entries_[next_].key != batch.back().api) ++next_;
    if (next_ == entries_.size()) return;
    progress_(label_, entries_[next_].end - entries_.front().begin, json_bytes_);
  }

 private:
  const Progress& progress_;
  const std::string& label_;
  const std::vector<JsonMemberSpan>& entries_;
  uint64_t json_bytes_ = 0;
  size_t next_ = 0;  // the entry the last batch ended in
};

}  // namespace

void SlicedOutputs::Count(const SliceRead& slice) {
  read.golden_rows += slice.golden_rows;
  read.md5 = read.md5 || slice.md5;
  const bool earlier = read.unmatched_golden == 0 || slice.first_unmatched_at < read.first_unmatched_at;
  if (slice.unmatched_golden > 0 && earlier) {
    read.first_unmatched = slice.first_unmatched;
    read.first_unmatched_at = slice.first_unmatched_at;
  }
  read.unmatched_golden += slice.unmatched_golden;
}

Result<SliceRead> StatisticsSliceCompare::CompareSlice(const ComparePairSpec& spec, const StatisticsSlice& slice,
                                                       const std::function<Status(const SliceTable&)>& batch) const {
  bool golden_md5 = false, target_md5 = false;
  std::vector<OpRow> golden;
  MSP_RETURN_IF_ERROR(StreamFlatEntries(spec.golden_json, "", slice.golden_header, slice.golden.entries,
                                        slice.golden.orders, SIZE_MAX,
                                        [&](const FlatDump&, std::vector<OpRow>* rows) {
                                          golden = std::move(*rows);
                                          return Status::Ok();
                                        },
                                        &golden_md5));
  std::optional<MatchOptions> match;
  std::optional<GoldenMatcher> matcher;
  GoldenRowUse golden_use(golden.size());
  const std::string stack = steps_.StackOf(spec);
  SliceProgress progress(steps_.progress(), spec, slice.target);
  // The target's rows in batches, as a streamed pair compares them: memory holds one batch of them.
  MSP_RETURN_IF_ERROR(StreamFlatEntries(
      spec.target_json, stack, slice.target_header, slice.target.entries, slice.target.orders,
      StreamBatchRows(steps_.options(), golden.size()),
      [&](const FlatDump& header, std::vector<OpRow>* rows) {
        if (!matcher) {
          FlatDump golden_header;
          golden_header.framework = slice.golden_header.framework;
          match = steps_.PairMatchOptions(header, golden_header);
          matcher.emplace(golden, *match);
        }
        progress.Read(*rows);  // before the batch's rows move into its table
        return batch(steps_.CompareBatch(rows, &golden, *matcher, slice.mode, !stack.empty(), &golden_use));
      },
      &target_md5));
  SliceRead read;
  read.golden_rows = golden.size();
  read.md5 = golden_md5 || target_md5;
  CountUnmatched(slice, golden, golden_use, &read);
  return read;
}

namespace {

// The pair's outputs, opened for the first rows appended.
PairOutputs& OutputsOf(const PairSteps& steps, const ComparePairSpec& spec, const StatisticsSlice& own,
                       SlicedOutputs* sliced) {
  if (!sliced->outputs) {
    sliced->outputs.emplace(steps.OpenOutputs(spec, ReadsAsDebugJson(spec.target_json, own.target_header.level)));
  }
  return *sliced->outputs;
}

}  // namespace

Status StatisticsSliceCompare::AppendSlice(const ComparePairSpec& spec, const StatisticsSlice& own,
                                           const SliceTable& batch, SlicedOutputs* sliced) const {
  if (batch.table.rows.empty()) return Status::Ok();
  return OutputsOf(steps_, spec, own, sliced).Append(batch.table, batch.p2p);
}

Status StatisticsSliceCompare::AppendSlice(const ComparePairSpec& spec, const StatisticsSlice& own,
                                           const PairOutputsPart& part, SlicedOutputs* sliced) const {
  if (part.rows() == 0) return Status::Ok();
  return OutputsOf(steps_, spec, own, sliced).Append(part);
}

Result<PairOutcome> StatisticsSliceCompare::ConcludeSlices(const ComparePairSpec& spec, const StatisticsSlice& own,
                                                           SlicedOutputs sliced, Clock::time_point start) const {
  // Outputs not finished are dropped, never committed.
  if (sliced.whole || sliced.read.golden_rows == 0 || (own.md5_unseen && sliced.read.md5) || !sliced.outputs ||
      sliced.outputs->split_api() || sliced.outputs->ints_as_floats()) {
    return whole_.ComparePair(spec);
  }
  PairOutcome outcome = NewOutcome(spec);
  PairResult& result = outcome.result;
  result.target_level = own.target_header.level;
  result.golden_level = own.golden_header.level;
  result.golden_rows = sliced.read.golden_rows;
  result.unmatched.golden = sliced.read.unmatched_golden;
  result.unmatched.first_golden = sliced.read.first_unmatched;
  MSP_RETURN_IF_ERROR(FinishStreamed(std::move(*sliced.outputs), own.mode, start, &outcome));
  return outcome;
}

}  // namespace msprobe::compare::internal
