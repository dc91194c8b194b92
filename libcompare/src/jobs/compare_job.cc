#include "msprobe/compare/jobs/compare_job.h"

#include <fmt/format.h>

#include <atomic>
#include <exception>
#include <memory>

#include "jobs/compare_run_internal.h"
#include "msprobe/dump/util/cluster.h"
#include "jobs/distributed_compare_internal.h"
#include "jobs/run_report_internal.h"
#include "msprobe/dump/framework/output_location.h"
#include "util/ordered_pipeline_internal.h"

namespace msprobe::compare {
namespace internal {

Result<RunPlan> PlanRun(const CompareOptions& options) {
  const std::vector<std::string> inputs = {options.target_path, options.golden_path, options.stack_path};
  MSP_RETURN_IF_ERROR(CheckOutputOutsideInputs(options.output_dir, /*is_dir=*/true, inputs));
  if (!options.junit_path.empty()) MSP_RETURN_IF_ERROR(CheckOutputOutsideInputs(options.junit_path, false, inputs));
  RunPlan plan;
  MSP_ASSIGN_OR_RETURN(plan.specs, ResolveComparePairs(options.target_path, options.golden_path, options.output_dir));
  MSP_ASSIGN_OR_RETURN(plan.mappings, LoadMappings(options));
  return plan;
}

Status CompareEach(const CompareRun& run, const std::vector<ComparePairSpec>& specs, const std::vector<size_t>& order,
                   size_t in_flight, const std::function<Status(PairAttempt)>& consume) {
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
          attempt->outcome = run.ComparePair(specs[i]);
        } catch (...) {
          attempt->exception = std::current_exception();
          threw.store(true);
        }
        return attempt;
      },
      [&](const std::shared_ptr<PairAttempt>& attempt) { return consume(std::move(*attempt)); });
}

}  // namespace internal

Result<CompareReport> RunCompare(const CompareOptions& options, const CompareProgress& progress,
                                 const Distribution& distribution) {
  if (distribution.cluster != nullptr && distribution.cluster->processes() > 1) {
    return internal::RunDistributedCompare(options, progress, distribution);
  }
  MSP_ASSIGN_OR_RETURN(internal::RunPlan plan, internal::PlanRun(options));
  SummedProgress summed(progress);
  const CompareProgress summed_progress = summed.callback();  // the run keeps a reference
  internal::CompareRun run(options, plan.mappings, summed_progress);
  // Pairs are recorded in order; the first failure in pair order is the one reported.
  std::vector<size_t> order(plan.specs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::exception_ptr thrown;
  const Status failed = internal::CompareEach(
      run, plan.specs, order, internal::PairsInFlight(plan.specs, 1), [&](internal::PairAttempt attempt) -> Status {
        if (attempt.exception) {
          thrown = attempt.exception;
          return Status::Internal("", "a pair threw");  // rethrown below
        }
        MSP_RETURN_IF_ERROR(attempt.outcome.status());
        run.Record(attempt.pair, std::move(*attempt.outcome));
        return Status::Ok();
      });
  if (thrown) std::rethrow_exception(thrown);
  MSP_RETURN_IF_ERROR(failed);
  std::vector<internal::XlsxMark> marks;
  if (options.diff_analyze) {
    MSP_ASSIGN_OR_RETURN(marks, run.AnalyzeFirstDiff());
  }
  MSP_ASSIGN_OR_RETURN(auto written, run.CommitXlsx(marks));
  for (const auto& [pair, files] : written) run.AddOutputs(pair, files);
  return std::move(run).Finish();
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
