// What every compare job (RunCompare, RunKernelCompare) does with its results, in one place: each
// compared pair's table summarised into its PairResult (counts, first error and warning, worst rows)
// and JUnit suite, the run's progress summed over its pairs, and the run-wide reports (JUnit,
// summary.json) written at the end. The gates (EvaluateGates) then read the CompareReport.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/output/junit_report.h"
#include "msprobe/compare/table/result_table.h"
#include "msprobe/compare/output/summary_report.h"
#include "msprobe/dump/util/job_context.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

// Fills `result`'s counts per Result, first_error, first_warning and worst rows, its matched rows and
// those written without a counterpart (added to what `result` counts already: the golden rows msprobe
// drops, unreadable tensors) from `table`, whose result file is `file`; returns the pair's JUnit suite
// (named result->label, failing at options.fail_on) when options.junit_path is set.
std::optional<JunitSuite> SummarizePair(const ResultTable& table, const std::string& file, double seconds,
                                        const CompareOptions& options, PairResult* result);

// The JUnit suite of a pair skipped because a side has no rows: one testcase, "not compared", failing
// under any gate as EvaluateGates does; nullopt without options.junit_path.
std::optional<JunitSuite> SkippedPairSuite(const CompareOptions& options, const PairResult& result);

// The JUnit suite of the inputs that pair with nothing (CompareReport::skipped_inputs): one testcase,
// "not compared", failing under any gate; nullopt without options.junit_path or when there are none.
std::optional<JunitSuite> SkippedInputsSuite(const CompareOptions& options, const std::vector<std::string>& skipped);

// SummarizePair over a table that comes in pieces, in row order: what a pair's result needs, kept
// compactly (counts, two row references, the worst rows), however many rows go by.
class PairSummary {
 public:
  explicit PairSummary(const CompareOptions& options);
  void Add(const ResultTable& table);
  // What another summary counted of the rows after these (a statistics slice's, docs/distributed.md
  // §3.1), with the same options: the same as adding those rows' tables here.
  void Add(const PairSummary& later);
  std::optional<JunitSuite> Finish(const std::string& file, double seconds, PairResult* result) &&;

 private:
  // Whether row `row` of `table` (row offset + row of the pair) found its counterpart.
  void CountMatch(const ResultTable& table, size_t row, size_t offset);

  uint64_t rows_ = 0, passed_ = 0, warnings_ = 0, errors_ = 0;
  uint64_t matched_ = 0;
  UnmatchedRows unmatched_;            // the rows written without a counterpart, on either side
  CompareMode mode_ = CompareMode::kSummary;
  std::optional<RowRef> first_error_, first_warning_;
  std::vector<WorstRow> worst_;
  std::optional<JunitSuiteBuilder> junit_;
  bool junit_fails_not_compared_ = false;  // --fail-on warning: rows not compared fail the suite
  bool junit_gated_ = false;               // any gate: a pair where no row matched fails it

  friend void PutPairSummary(std::string* dst, const PairSummary& summary);
  friend bool GetPairSummary(Decoder* in, PairSummary* summary);
};

// In a message between processes (coding.h): what it counted. Get reads into a summary made with the
// options it was made with, and fails when one has a JUnit suite and the other not.
void PutPairSummary(std::string* dst, const PairSummary& summary);
[[nodiscard]] bool GetPairSummary(Decoder* in, PairSummary* summary);

// The end of a run: the JUnit file when options.junit_path is set, then summary.json in
// options.output_dir (report->summary_file), each written atomically. A run that stopped on `failure`
// after writing outputs writes summary.json alone, with the error; so does one whose JUnit file failed.
// Returns the run's error, if any.
Status WriteRunReports(const CompareOptions& options, CompareReport* report, const Status& failure = Status::Ok());

// The progress of the pairs in flight as one: the sums over the pairs begun so far, not several sets
// of numbers taking turns. Pairs are told apart by their label.
class SummedProgress {
 public:
  explicit SummedProgress(const Progress& progress) : progress_(progress) {}

  // Empty when the caller wants no progress. The callback refers to this object.
  Progress callback() {
    if (!progress_) return {};
    return [this](std::string_view label, uint64_t done, uint64_t total) {
      const std::lock_guard<std::mutex> lock(mutex_);
      auto& [pair_done, pair_total] = pairs_[std::string(label)];
      done_ += done - pair_done;
      total_ += total - pair_total;
      pair_done = done;
      pair_total = total;
      progress_(label, done_, total_);
    };
  }

 private:
  const Progress& progress_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::pair<uint64_t, uint64_t>> pairs_;
  uint64_t done_ = 0, total_ = 0;
};

}  // namespace msprobe::compare
