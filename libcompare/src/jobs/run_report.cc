#include "jobs/run_report_internal.h"

#include <filesystem>
#include <system_error>

#include "msprobe/compare/output/not_compared.h"
#include "msprobe/compare/output/summary_report.h"
#include "msprobe/dump/util/coding.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

constexpr size_t kWorstRows = 20;

}  // namespace

PairSummary::PairSummary(const CompareOptions& options) {
  if (options.junit_path.empty()) return;
  junit_.emplace(options.fail_on);
  junit_fails_not_compared_ = options.fail_on == Verdict::kWarning;
  junit_gated_ = options.fail_on || options.fail_on_first_diff;
}

void PairSummary::CountMatch(const ResultTable& table, size_t row, size_t offset) {
  const ResultRow& r = table.rows[row];
  if (r.matched) {
    ++matched_;
  } else if (r.golden_only) {
    if (unmatched_.golden++ == 0) unmatched_.first_golden = r.golden_name;
  } else if (unmatched_.target++ == 0) {
    unmatched_.first_target = MakeRowRef(table, row, "");  // its file is known at Finish
    unmatched_.first_target->row += offset;
  }
}

void PairSummary::Add(const ResultTable& table) {
  const size_t offset = rows_;
  rows_ += table.rows.size();
  mode_ = table.mode;
  for (size_t row = 0; row < table.rows.size(); ++row) {
    const Verdict result = table.rows[row].result;
    switch (result) {
      case Verdict::kPass: passed_ += table.rows[row].Compared() ? 1 : 0; break;
      case Verdict::kWarning: ++warnings_; break;
      case Verdict::kError: ++errors_; break;
    }
    for (auto [ref, level] : {std::pair{&first_warning_, Verdict::kWarning}, std::pair{&first_error_, Verdict::kError}}) {
      if (result < level || *ref) continue;
      *ref = MakeRowRef(table, row, "");  // its file is known at Finish
      (*ref)->row += offset;
    }
    CountMatch(table, row, offset);
  }
  std::vector<WorstRow> worst = WorstRows(table, kWorstRows);
  for (WorstRow& w : worst) w.row += offset;
  worst_.insert(worst_.end(), std::make_move_iterator(worst.begin()), std::make_move_iterator(worst.end()));
  KeepWorst(&worst_, mode_, kWorstRows);
  if (junit_) junit_->Add(table);
}

void PairSummary::Add(const PairSummary& later) {
  const size_t offset = rows_;
  const auto moved = [offset](const std::optional<RowRef>& ref) {
    std::optional<RowRef> at = ref;
    if (at) at->row += offset;
    return at;
  };
  rows_ += later.rows_;
  passed_ += later.passed_;
  warnings_ += later.warnings_;
  errors_ += later.errors_;
  matched_ += later.matched_;
  if (later.rows_ > 0) mode_ = later.mode_;
  if (!first_error_) first_error_ = moved(later.first_error_);
  if (!first_warning_) first_warning_ = moved(later.first_warning_);
  if (unmatched_.target == 0) unmatched_.first_target = moved(later.unmatched_.first_target);
  unmatched_.target += later.unmatched_.target;
  if (unmatched_.golden == 0) unmatched_.first_golden = later.unmatched_.first_golden;
  unmatched_.golden += later.unmatched_.golden;
  for (WorstRow w : later.worst_) {
    w.row += offset;
    worst_.push_back(std::move(w));
  }
  KeepWorst(&worst_, mode_, kWorstRows);
  if (junit_ && later.junit_) junit_->Add(*later.junit_);
}

void PutPairSummary(std::string* dst, const PairSummary& summary) {
  for (const uint64_t n : {summary.rows_, summary.passed_, summary.warnings_, summary.errors_, summary.matched_}) {
    PutVarint64(dst, n);
  }
  PutUnmatchedRows(dst, summary.unmatched_);
  PutEnum(dst, summary.mode_);
  PutOptional(dst, summary.first_error_, PutRowRef);
  PutOptional(dst, summary.first_warning_, PutRowRef);
  PutVector(dst, summary.worst_, PutWorstRow);
  PutBool(dst, summary.junit_.has_value());
  if (summary.junit_) PutJunitCases(dst, *summary.junit_);
}

bool GetPairSummary(Decoder* in, PairSummary* summary) {
  PairSummary& s = *summary;
  bool junit = false;
  if (!GetVarint64(in, &s.rows_) || !GetVarint64(in, &s.passed_) || !GetVarint64(in, &s.warnings_) ||
      !GetVarint64(in, &s.errors_) || !GetVarint64(in, &s.matched_) || !GetUnmatchedRows(in, &s.unmatched_) ||
      !GetEnum(in, &s.mode_, CompareMode::kMd5) || !GetOptional(in, &s.first_error_, GetRowRef) ||
      !GetOptional(in, &s.first_warning_, GetRowRef) || !GetVector(in, &s.worst_, GetWorstRow) ||
      !GetBool(in, &junit)) {
    return false;
  }
  if (junit != s.junit_.has_value()) return in->Fail(junit ? "JUnit cases for a run without" : "no JUnit cases");
  return !junit || GetJunitCases(in, &*s.junit_);
}

std::optional<JunitSuite> PairSummary::Finish(const std::string& file, double seconds, PairResult* result) && {
  result->rows = rows_;
  result->passed = passed_;
  result->warnings = warnings_;
  result->errors = errors_;
  for (std::optional<RowRef>* ref : {&first_error_, &first_warning_, &unmatched_.first_target}) {
    if (*ref) (*ref)->file = file;
  }
  result->first_error = std::move(first_error_);
  result->first_warning = std::move(first_warning_);
  result->worst = std::move(worst_);
  result->matched_rows = matched_;
  UnmatchedRows& unmatched = result->unmatched;
  unmatched.target += unmatched_.target;
  if (unmatched_.first_target) unmatched.first_target = std::move(unmatched_.first_target);
  unmatched.golden += unmatched_.golden;
  if (unmatched.first_golden.empty()) unmatched.first_golden = std::move(unmatched_.first_golden);
  if (!junit_) return std::nullopt;
  JunitSuite suite = std::move(*junit_).Finish(result->label, file);
  suite.seconds = seconds;
  if (result->NothingCompared()) {
    suite.not_compared = JunitNotCompared{NothingComparedText(*result), junit_gated_};
  } else if (result->NotCompared() > 0) {
    // Unreadable tensors fail every gate (EvaluateGates); rows without a counterpart --fail-on warning.
    const bool failure = junit_fails_not_compared_ || (junit_gated_ && result->unreadable_tensors > 0);
    suite.not_compared = JunitNotCompared{NotComparedCounts({result, 1}), failure};
  }
  return suite;
}

std::optional<JunitSuite> SummarizePair(const ResultTable& table, const std::string& file, double seconds,
                                        const CompareOptions& options, PairResult* result) {
  PairSummary summary(options);
  summary.Add(table);
  return std::move(summary).Finish(file, seconds, result);
}

std::optional<JunitSuite> SkippedPairSuite(const CompareOptions& options, const PairResult& result) {
  if (options.junit_path.empty()) return std::nullopt;
  JunitSuite suite;
  suite.name = result.label;
  suite.file = result.RowFile();
  suite.not_compared = JunitNotCompared{NothingComparedText(result), options.fail_on || options.fail_on_first_diff};
  return suite;
}

std::optional<JunitSuite> SkippedInputsSuite(const CompareOptions& options, const std::vector<std::string>& skipped) {
  if (options.junit_path.empty() || skipped.empty()) return std::nullopt;
  JunitSuite suite;
  suite.name = "inputs";
  suite.not_compared = JunitNotCompared{SkippedInputsText(skipped), options.fail_on || options.fail_on_first_diff};
  return suite;
}

Status WriteRunReports(const CompareOptions& options, CompareReport* report, const Status& failure) {
  // A run that failed, or whose JUnit file failed, still says in summary.json what it wrote and why it stopped.
  Status error = failure;
  if (error.ok() && !options.junit_path.empty()) error = WriteJunit(options.junit_path, report->junit);
  report->summary_file = (fs::path(options.output_dir) / "summary.json").string();
  std::error_code ec;
  fs::create_directories(options.output_dir, ec);
  if (ec) return Status::IOError(options.output_dir, "cannot create the output directory: " + ec.message());
  const SummaryInputs inputs{options.tool_version, options.target_path, options.golden_path, options.diff_analyze,
                             options.attribute};
  MSP_RETURN_IF_ERROR(WriteSummaryJson(report->summary_file, inputs, *report, error));
  return error;
}

}  // namespace msprobe::compare
