#include "jobs/pair_compare_internal.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>

#include "jobs/pair_rules_internal.h"
#include "util/ordered_pipeline_internal.h"

namespace msprobe::compare::internal {

Result<PairOutcome> PairCompare::ComparePair(const ComparePairSpec& spec) const {
  const Clock::time_point start = Clock::now();
  const std::string stack = steps_.StackOf(spec);
  std::optional<FlatDump> golden;
  if (MayStream(steps_.options(), spec)) {
    MSP_ASSIGN_OR_RETURN(golden, FlattenDump(spec.golden_json, "", steps_.op_rows().Take()));
    if (!golden->rows.empty() && ComparedMode(steps_.options(), golden->mode) != CompareMode::kTensor) {
      MSP_ASSIGN_OR_RETURN(std::optional<PairOutcome> streamed, CompareStreamed(spec, stack, start, &*golden));
      if (streamed) {
        steps_.op_rows().Give(&golden->rows);
        return std::move(*streamed);
      }
    }
  }
  // The pair in memory: both dumps flattened, matched and compared at once.
  MSP_ASSIGN_OR_RETURN(PreparedPair prepared, in_memory_.Prepare(spec, stack, start, std::move(golden)));
  if (prepared.skipped) return std::move(prepared.outcome);
  std::vector<MetricSlice> slices;
  if (prepared.table.mode == CompareMode::kTensor) {
    slices.push_back(in_memory_.ComputeSlice(&prepared, 0, prepared.table.rows.size()));
  }
  return in_memory_.Conclude(spec, std::move(prepared), slices);
}

Result<std::optional<PairOutcome>> PairCompare::CompareStreamed(const ComparePairSpec& spec, const std::string& stack,
                                                                Clock::time_point start, FlatDump* golden) const {
  const CompareOptions& options = steps_.options();
  PairOutcome outcome = NewOutcome(spec);
  const CompareMode mode = ComparedMode(options, golden->mode);
  std::optional<FlatDump> first;  // the target's header as its first batch saw it
  MatchOptions match;
  std::optional<GoldenMatcher> matcher;
  std::optional<PairOutputs> outputs;
  const Progress& progress = steps_.progress();
  const uint64_t golden_rows = golden->rows.size();
  uint64_t rows_done = 0;
  GoldenRowUse golden_use(golden->rows.size());
  const auto compare_batch = [&](const FlatDump& header, std::vector<OpRow>* rows) -> Status {
    if (!first) {
      first = header;
      match = steps_.PairMatchOptions(header, *golden);
      matcher.emplace(golden->rows, match);
      outputs.emplace(steps_.OpenOutputs(spec, header.is_debug));
    }
    rows_done += rows->size();
    const SliceTable batch =
        steps_.CompareBatch(rows, &golden->rows, *matcher, mode, !stack.empty(), &golden_use);
    // The target's rows are not counted ahead: the golden's stand in for them, short of the end.
    if (progress) progress(spec.target_json, rows_done, std::max(golden_rows, rows_done + 1));
    return outputs->Append(batch.table, batch.p2p);
  };
  MSP_ASSIGN_OR_RETURN(FlatDump target,
                       StreamFlatDumpAhead(spec.target_json, stack, StreamBatchRows(options, golden_rows), compare_batch));
  MSP_RETURN_IF_ERROR(CheckFrameworks(target, *golden, options));
  if (!first) {
    NoteNoRows(options, 0, golden->rows, &outcome);
    return std::optional<PairOutcome>(std::move(outcome));
  }
  // A header member after "data" that changes how the rows were read, or -da batches that a whole
  // table would check differently: compare again in memory (the files written so far are dropped).
  if (target.is_debug != first->is_debug || target.framework != first->framework || outputs->split_api() ||
      outputs->ints_as_floats()) {
    return std::optional<PairOutcome>();
  }
  NoteDumps(target, *golden, &outcome.result);
  NoteUnmatchedGolden(golden->rows, golden_use, &outcome.result);
  MSP_RETURN_IF_ERROR(FinishStreamed(std::move(*outputs), mode, start, &outcome));
  return std::optional<PairOutcome>(std::move(outcome));
}

// Two pairs at once keep both cores busy through each pair's serial steps, at twice the memory: a
// statistics compare held in memory peaks at about 6 bytes per byte of dump.json, 7 with two pairs
// and the row storage they pass on (VectorPool). So two only when the two largest pairs' dump.json
// files, at that rate, fit in half the machine's memory (shared by the processes of a distributed
// run on this host). A streamed pair needs far less (about 1.5
// bytes per byte of the golden json, docs/compare.md §6.1), but may fall back to the whole compare.
size_t PairsInFlight(const std::vector<ComparePairSpec>& specs, int processes_on_host) {
  if (specs.size() < 2) return 1;
  constexpr uint64_t kMemoryPerJsonByte = 7;
  uint64_t largest = 0, second = 0;
  for (const ComparePairSpec& spec : specs) {
    std::error_code ec;
    uint64_t bytes = 0;
    for (const std::string& path : {spec.target_json, spec.golden_json}) {
      const uintmax_t size = std::filesystem::file_size(path, ec);
      if (!ec) bytes += size;
    }
    if (bytes > largest) {
      second = largest;
      largest = bytes;
    } else if (bytes > second) {
      second = bytes;
    }
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 1;
  const uint64_t memory = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
  return (largest + second) * kMemoryPerJsonByte <= memory / 2 / processes_on_host ? 2 : 1;
}

Status CompareEach(const PairCompare& compare, const std::vector<ComparePairSpec>& specs,
                   const std::vector<size_t>& order, size_t in_flight,
                   const std::function<Status(PairAttempt)>& consume) {
  size_t next = 0;
  std::atomic<bool> threw{false};  // no pair starts once one has thrown, whatever its order
  return MapInOrder<size_t, std::shared_ptr<PairAttempt>>(
      in_flight,
      [&](size_t* i) {
        if (next == order.size() || threw.load()) return false;
        *i = order[next++];
        return true;
      },
      [&](size_t i) {
        auto attempt = std::make_shared<PairAttempt>();
        attempt->pair = i;
        try {
          attempt->outcome = compare.ComparePair(specs[i]);
        } catch (...) {
          attempt->exception = std::current_exception();
          threw.store(true);
        }
        return attempt;
      },
      [&](const std::shared_ptr<PairAttempt>& attempt) { return consume(std::move(*attempt)); });
}

}  // namespace msprobe::compare::internal
