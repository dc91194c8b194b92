// What a compare run keeps of its compared pairs, recorded in pair order, and what it does once they
// are all in: -da's first-diff analysis across ranks and the marks it puts on the pairs' xlsx files,
// those files committed, and the run's reports (--html, summary.json, JUnit).
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "jobs/pair_outputs_internal.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "report/run_html_internal.h"

namespace msprobe::compare::internal {

// -da's mark on a pair's xlsx: the first diff's row, its name and stack.
struct XlsxMark {
  size_t pair = 0, row = 0;
  std::string target_name, stack;
};

class RunRecorder {
 public:
  // `skipped_inputs`: what the run's paths hold that pairs with nothing (RunPlan), reported with the pairs.
  RunRecorder(const CompareOptions& options, std::vector<std::string> skipped_inputs);

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
  // A run that stopped on `failure`: summary.json says so when a recorded pair wrote files. Returns `failure`.
  Status Fail(const Status& failure) &&;

 private:
  const CompareOptions& options_;
  CompareReport report_;
  std::vector<size_t> rank_pairs_;     // -da: the pair of each entry of ranks_
  std::vector<RankDiffs> ranks_;
  std::vector<std::unordered_map<size_t, DiffRow>> diff_rows_;  // per entry of ranks_: its differing rows
  std::vector<std::pair<size_t, XlsxResultStream>> pending_xlsx_;  // -da: per pair, its unmarked xlsx
  HtmlReport html_;                    // --html: a part per pair, written by Finish
};

}  // namespace msprobe::compare::internal
