#include "msprobe/compare/jobs/compare_job.h"

#include <fmt/format.h>

#include <exception>

#include "msprobe/compare/output/not_compared.h"
#include "msprobe/compare/output/row_place.h"
#include "msprobe/dump/util/cluster.h"
#include "jobs/distributed_compare_internal.h"
#include "jobs/pair_compare_internal.h"
#include "jobs/pair_steps_internal.h"
#include "jobs/run_plan_internal.h"
#include "jobs/run_progress_internal.h"
#include "jobs/run_recorder_internal.h"
#include "jobs/run_report_internal.h"

namespace msprobe::compare {

Result<CompareReport> RunCompare(const CompareOptions& options, const JobContext& context) {
  if (context.cluster != nullptr && context.cluster->processes() > 1) {
    return internal::RunDistributedCompare(options, context);
  }
  MSP_ASSIGN_OR_RETURN(internal::RunPlan plan, internal::PlanRun(options));
  internal::RunProgress run_progress(context.progress, plan.specs);
  const Progress progress = run_progress.callback();  // the steps keep a reference
  const internal::PairSteps steps(options, plan.mappings, progress);
  const internal::PairCompare compare(steps);
  internal::RunRecorder recorder(options, plan.skipped_inputs);
  // Pairs are recorded in order; the first failure in pair order is the one reported. The pairs in
  // flight when one fails still write their files, so they are recorded too: summary.json names them.
  std::vector<size_t> order(plan.specs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::exception_ptr thrown;
  Status failed;
  const Status stopped = internal::CompareEach(
      compare, plan.specs, order, internal::PairsInFlight(plan.specs, 1), [&](internal::PairAttempt attempt) -> Status {
        if (attempt.exception) {
          thrown = attempt.exception;
          return Status::Internal("", "a pair threw");  // rethrown below
        }
        if (!attempt.outcome.ok()) {
          if (failed.ok()) failed = attempt.outcome.status();
        } else {
          run_progress.Finished(plan.specs[attempt.pair].target_json);
          recorder.Record(attempt.pair, std::move(*attempt.outcome));
        }
        return Status::Ok();
      });
  if (thrown) std::rethrow_exception(thrown);
  if (failed.ok()) failed = stopped;
  if (!failed.ok()) return std::move(recorder).Fail(failed);
  std::vector<internal::XlsxMark> marks;
  if (options.diff_analyze) {
    Result<std::vector<internal::XlsxMark>> analyzed = recorder.AnalyzeFirstDiff();
    if (!analyzed.ok()) return std::move(recorder).Fail(analyzed.status());
    marks = std::move(*analyzed);
  }
  auto written = recorder.CommitXlsx(marks);
  if (!written.ok()) return std::move(recorder).Fail(written.status());
  for (const auto& [pair, files] : *written) recorder.AddOutputs(pair, files);
  return std::move(recorder).Finish();
}

std::optional<GateFailure> EvaluateGates(const CompareOptions& options, const CompareReport& report) {
  const std::string fail_on = options.fail_on ? fmt::format("--fail-on {}", VerdictName(*options.fail_on)) : "";
  const std::string any_gate = !fail_on.empty() ? fail_on : options.fail_on_first_diff ? "--fail-on-first-diff" : "";
  if (any_gate.empty()) return std::nullopt;
  if (!report.skipped_inputs.empty()) return GateFailure{any_gate, SkippedInputsText(report.skipped_inputs)};
  for (const PairResult& pair : report.pairs) {
    if (pair.NothingCompared()) return GateFailure{any_gate, NothingComparedText(pair)};
  }
  // A tensor that could not be read leaves its row unmeasured though both sides have it: the dump is
  // incomplete, whatever the level asked for.
  uint64_t unreadable = 0;
  std::string first_unreadable;
  for (const PairResult& pair : report.pairs) {
    if (first_unreadable.empty()) first_unreadable = pair.first_unreadable;
    unreadable += pair.unreadable_tensors;
  }
  if (unreadable > 0) {
    return GateFailure{any_gate, fmt::format("{} tensor(s) could not be read, their rows not compared; first: {}",
                                             unreadable, first_unreadable)};
  }
  if (options.fail_on) {
    for (const PairResult& pair : report.pairs) {
      const std::optional<RowRef>& row = *options.fail_on == Verdict::kError ? pair.first_error : pair.first_warning;
      if (row) return GateFailure{fail_on, RowRefText(pair, *row)};
    }
    if (const std::optional<std::string> first = FirstNotCompared(report.pairs);
        first && *options.fail_on == Verdict::kWarning) {
      uint64_t rows = 0;
      for (const PairResult& pair : report.pairs) rows += pair.NotCompared();
      return GateFailure{fail_on, fmt::format("{} row(s) not compared; first: {}", rows, *first)};
    }
  }
  if (options.fail_on_first_diff && !report.first_diff.nodes.empty()) {
    const RowRef& node = report.first_diff.nodes.front();
    const PairResult* pair = PairOfRowFile(report, node.file);
    return GateFailure{"--fail-on-first-diff", pair ? RowRefText(*pair, node) : node.file + ": " + node.target_name};
  }
  return std::nullopt;
}

}  // namespace msprobe::compare
