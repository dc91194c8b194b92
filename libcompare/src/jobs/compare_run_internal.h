// One msprobe-compare run's pairs and what it does once they are compared, in the steps that
// RunCompare takes in one process and a distributed run (jobs/distributed_compare.cc) spreads over
// several: compare a pair (whole, or a tensor pair prepared once and its metrics computed in row
// slices), record the outcomes in pair order, -da's first-diff analysis, the xlsx files it marks,
// and the run's reports.
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "jobs/compare_inputs_internal.h"
#include "jobs/pair_outputs_internal.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/rows/flatten.h"
#include "msprobe/compare/rows/layer_mapping.h"
#include "msprobe/compare/rows/match.h"
#include "msprobe/compare/rows/name_mapping.h"
#include "msprobe/dump/framework/dump_json.h"
#include "report/run_html_internal.h"
#include "util/vector_pool_internal.h"

namespace msprobe::compare::internal {

struct Mappings {
  DataMapping data;
  CellMapping cell;
  ApiMapping api;
  LayerMapping layer;
  MatchOptions match;
};
Result<Mappings> LoadMappings(const CompareOptions& options);

using Clock = std::chrono::steady_clock;

// A pair flattened, matched and made into its result rows, before the metrics.
struct PreparedPair {
  PairOutcome outcome;
  std::string stack;                   // the stack.json used ("" for none)
  Clock::time_point start;
  FlatDump npu, bench;
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
};

// -da's mark on a pair's xlsx: the first diff's row, its name and stack.
struct XlsxMark {
  size_t pair = 0, row = 0;
  std::string npu_name, stack;
};

// A statistics pair shared by rows (docs/distributed.md §3): one process's range of the target's
// entries and the golden entries they can match, located by the owner's outline of both dumps
// (jobs/statistics_slices.cc), with the headers they are read with and the mode they are compared in.
struct EntrySlice {
  std::vector<JsonMemberSpan> entries;
  std::vector<CallOrder> orders;  // one per entry
};
struct StatisticsSlice {
  DumpJsonHeader target_header, golden_header;
  CompareMode mode = CompareMode::kSummary;
  // The plan assumed no md5 summaries on a statistics side (its first entries had none): a slice that
  // reads one makes the owner compare the pair whole.
  bool md5_unseen = false;
  EntrySlice target, golden;
};
// What a slice read besides its rows: how many golden rows, and whether an entry held md5 summaries.
struct SliceRead {
  size_t golden_rows = 0;
  bool md5 = false;
};
// A batch of a slice compared: finished rows and -da's P2POp columns.
struct SliceTable {
  ResultTable table;
  std::vector<P2pColumns> p2p;
};
// The owner's outputs of a split statistics pair, fed every slice's batches in slice order.
struct SlicedOutputs {
  std::optional<PairOutputs> outputs;  // opened with the first rows
  size_t golden_rows = 0;              // read by the slices so far
  bool md5 = false;                    // a slice read md5 summaries
  bool whole = false;                  // a slice failed: the pair is compared whole instead
};

class CompareRun {
 public:
  CompareRun(const CompareOptions& options, const Mappings& mappings, const Progress& progress)
      : options_(options), mappings_(mappings), progress_(progress) {}

  // Safe to call for several pairs at once: reads only the options and mappings.
  Result<PairOutcome> ComparePair(const ComparePairSpec& spec) const;
  // A tensor pair in steps (docs/distributed.md §3): prepared alike by every process sharing it,
  // each computing a slice of its rows, the owner concluding with them all.
  Result<PreparedPair> Prepare(const ComparePairSpec& spec) const;
  MetricSlice ComputeSlice(PreparedPair* prepared, size_t begin, size_t end) const;
  Result<PairOutcome> Conclude(const ComparePairSpec& spec, PreparedPair prepared,
                               const std::vector<MetricSlice>& slices) const;

  // A statistics pair in slices: each process compares its own in batches of finished rows, handed
  // to `batch` in order, and says what else it read (SliceRead). The owner appends every slice's
  // batches in slice order, then concludes, or compares the pair whole when the slices cannot stand
  // for it: a slice failed (the whole compare reports the error one process would), the golden dump
  // has no rows, md5 summaries the plan did not see, or -da's API batches run over two entries. `start`: when the pair began.
  Result<SliceRead> CompareSlice(const ComparePairSpec& spec, const StatisticsSlice& slice,
                                 const std::function<Status(const SliceTable&)>& batch) const;
  Status AppendSlice(const ComparePairSpec& spec, const StatisticsSlice& own, const SliceTable& batch,
                     SlicedOutputs* sliced) const;
  Result<PairOutcome> ConcludeSlices(const ComparePairSpec& spec, const StatisticsSlice& own, SlicedOutputs sliced,
                                     Clock::time_point start) const;

  // The pair's outcome, in pair order; its pending xlsx is kept for CommitXlsx.
  void Record(size_t pair, PairOutcome outcome);
  // A -da pair's xlsx, its rows written here, kept for CommitXlsx (its outcome recorded elsewhere).
  void KeepXlsx(size_t pair, XlsxResultStream xlsx) { pending_xlsx_.emplace_back(pair, std::move(xlsx)); }
  // -da: the analysis over the recorded pairs (diff_analyze_{ns}.json) and the marks it puts on xlsx files.
  Result<std::vector<XlsxMark>> AnalyzeFirstDiff();
  // Commits the pending xlsx files kept here, marked; per pair, the files written.
  Result<std::vector<std::pair<size_t, std::vector<std::string>>>> CommitXlsx(const std::vector<XlsxMark>& marks);
  void AddOutputs(size_t pair, const std::vector<std::string>& files);
  // --html, summary.json and JUnit, once every pair is recorded and its files written.
  Result<CompareReport> Finish() &&;

 private:
  // The matching of a pair of these dumps (their kind and frameworks, and the run's mappings).
  MatchOptions PairMatchOptions(const FlatDump& npu, const FlatDump& bench) const;
  // A pair's outputs, named with the time they are opened.
  PairOutputs OpenOutputs(const ComparePairSpec& spec, bool is_debug) const;
  std::string StackOf(const ComparePairSpec& spec) const;
  Result<PreparedPair> Prepare(const ComparePairSpec& spec, std::string stack, Clock::time_point start,
                               std::optional<FlatDump> bench) const;
  // Target rows matched against the golden ones and made into finished rows: statistics, verdicts
  // and -da's P2POp columns. The golden rows serve later batches too.
  SliceTable CompareBatch(std::vector<OpRow>* rows, std::vector<OpRow>* bench, const BenchMatcher& matcher,
                          CompareMode mode, bool with_stack) const;
  // The pair streamed, or nullopt when it turns out to need the whole target at once.
  Result<std::optional<PairOutcome>> CompareStreamed(const ComparePairSpec& spec, const std::string& stack,
                                                     Clock::time_point start, FlatDump* bench) const;

  const CompareOptions& options_;
  const Mappings& mappings_;
  const Progress& progress_;
  CompareReport report_;
  std::vector<size_t> rank_pairs_;     // -da: the pair of each entry of ranks_
  std::vector<RankDiffs> ranks_;
  std::vector<std::unordered_map<size_t, DiffRow>> diff_rows_;  // per entry of ranks_: its differing rows
  std::vector<std::pair<size_t, XlsxResultStream>> pending_xlsx_;  // -da: per pair, its unmarked xlsx
  HtmlReport html_;                    // --html: a part per pair, written by Finish
  mutable std::mutex directories_mutex_;
  mutable VectorPool<OpRow> op_rows_;  // the row vectors of pairs done, for the next pairs
  mutable VectorPool<ResultRow> result_rows_;
};

// A pair's outcome before it is compared: which files, under which label.
PairOutcome NewOutcome(const ComparePairSpec& spec);
// A pair whose rows went to `outputs` in batches (streamed, or in slices): its files committed and
// its outcome filled, compared in `mode`; `start`: when the pair began.
Status FinishStreamed(PairOutputs outputs, CompareMode mode, Clock::time_point start, PairOutcome* outcome);
// -da compares statistics even for tensor dumps (msprobe downgrades ALL to SUMMARY).
CompareMode ComparedMode(const CompareOptions& options, CompareMode mode);
// Whether a pair can stream its target (docs/compare.md §6.1), which a statistics pair shared by rows
// needs too: its rows match on their own keys, and its golden dump holds statistics.
bool MayStream(const CompareOptions& options, const ComparePairSpec& spec);
// docs/compare.md §1.2: which dumps compare with which, told by their headers and modes.
Status CheckFrameworks(const FlatDump& npu, const FlatDump& bench, const CompareOptions& options);

// How many pairs of these to compare at once in one process (memory allows two or one).
size_t PairsInFlight(const std::vector<ComparePairSpec>& specs, int processes_on_host);

// What a run compares, once its outputs are checked to be outside its inputs.
struct RunPlan {
  std::vector<ComparePairSpec> specs;
  Mappings mappings;
};
Result<RunPlan> PlanRun(const CompareOptions& options);

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
Status CompareEach(const CompareRun& run, const std::vector<ComparePairSpec>& specs, const std::vector<size_t>& order,
                   size_t in_flight, const std::function<Status(PairAttempt)>& consume);

}  // namespace msprobe::compare::internal
