#include "msprobe/compare/jobs/compare_job.h"

#include <fmt/format.h>

#include <exception>

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
  internal::RunRecorder recorder(options);
  // Pairs are recorded in order; the first failure in pair order is the one reported.
  std::vector<size_t> order(plan.specs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::exception_ptr thrown;
  const Status failed = internal::CompareEach(
      compare, plan.specs, order, internal::PairsInFlight(plan.specs, 1), [&](internal::PairAttempt attempt) -> Status {
        if (attempt.exception) {
          thrown = attempt.exception;
          return Status::Internal("", "a pair threw");  // rethrown below
        }
        MSP_RETURN_IF_ERROR(attempt.outcome.status());
        run_progress.Finished(plan.specs[attempt.pair].target_json);
        recorder.Record(attempt.pair, std::move(*attempt.outcome));
        return Status::Ok();
      });
  if (thrown) std::rethrow_exception(thrown);
  MSP_RETURN_IF_ERROR(failed);
  std::vector<internal::XlsxMark> marks;
  if (options.diff_analyze) {
    MSP_ASSIGN_OR_RETURN(marks, recorder.AnalyzeFirstDiff());
  }
  MSP_ASSIGN_OR_RETURN(auto written, recorder.CommitXlsx(marks));
  for (const auto& [pair, files] : written) recorder.AddOutputs(pair, files);
  return std::move(recorder).Finish();
}

std::optional<GateFailure> EvaluateGates(const CompareOptions& options, const CompareReport& report) {
  if (options.fail_on) {
    for (const PairResult& pair : report.pairs) {
      const std::optional<RowRef>& row = *options.fail_on == Verdict::kError ? pair.first_error : pair.first_warning;
      if (row) return GateFailure{fmt::format("--fail-on {}", VerdictName(*options.fail_on)), *row};
    }
  }
  if (options.fail_on_first_diff && !report.first_diff.nodes.empty()) {
    return GateFailure{"--fail-on-first-diff", report.first_diff.nodes.front()};
  }
  return std::nullopt;
}

}  // namespace msprobe::compare
