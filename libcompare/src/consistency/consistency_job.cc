#include "msprobe/compare/consistency/consistency_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "consistency/consistency_inputs_internal.h"
#include "consistency/consistency_outputs_internal.h"
#include "consistency/consistency_table_internal.h"
#include "consistency/rank_values_internal.h"
#include "consistency/step_reading_internal.h"
#include "consistency/step_table_internal.h"
#include "msprobe/dump/framework/output_location.h"
#include "output/output_timestamp_internal.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;
using internal::ConsistencyStep;
using internal::RankValues;

// A run spread over processes (docs/distributed.md §9); one process runs alone.
bool Several(const JobContext& context) { return context.cluster != nullptr && context.cluster->processes() > 1; }

// What the run met besides the findings: the dumps' modes and the tally of the checks.
struct RunTally {
  internal::CheckTally checks;
  std::set<std::string> tasks;
  bool any_md5 = false;
  std::set<std::string> parameters, grouped_parameters;
};

void TallyRank(const RankValues& values, RunTally* tally, ConsistencyCounts* counts) {
  tally->tasks.insert(values.task);
  counts->arguments += values.args.size();
  ++counts->dumps;
  for (const internal::RankArg& arg : values.args) {
    tally->any_md5 = tally->any_md5 || !arg.value.md5.empty();
    if (arg.role != internal::ArgRole::kParameter) continue;
    tally->parameters.insert(arg.name);
    if (arg.grouped) tally->grouped_parameters.insert(arg.name);
  }
}

std::string ModeOf(const ConsistencyOptions& options, const RunTally& tally) {
  if (options.recompute_stats) return "tensor (statistics and CRC-32 recomputed from the tensor files)";
  std::string tasks;
  for (const std::string& t : tally.tasks) tasks += (tasks.empty() ? "" : "+") + (t.empty() ? "unknown" : t);
  return tally.any_md5 && tasks == "statistics" ? "md5" : tasks;
}

// Every step read and checked; the findings in the report, inconsistencies first.
Status CheckSteps(const ConsistencyOptions& options, const JobContext& context, const std::vector<ConsistencyStep>& steps,
                  ConsistencyReport* report) {
  const internal::RankReadOptions read_options{.recompute_stats = options.recompute_stats};
  uint64_t total = 0, done = 0;
  std::set<int64_t> ranks;
  for (const ConsistencyStep& step : steps) total += step.ranks.size();
  RunTally tally;
  for (const ConsistencyStep& step : steps) {
    std::vector<int64_t> step_ranks;
    for (const internal::TrendRankDir& r : step.ranks) step_ranks.push_back(r.rank);
    ranks.insert(step_ranks.begin(), step_ranks.end());
    internal::StepTable table(step.step, step_ranks, options);
    const auto add = [&](RankValues&& values) {
      TallyRank(values, &tally, &report->counts);
      table.Add(std::move(values));
      if (context.progress) context.progress("dump.json files", ++done, total);
    };
    MSP_RETURN_IF_ERROR(Several(context) ? internal::ReadStepSpread(*context.cluster, step, read_options, add)
                                         : internal::ReadStepInOrder(step, read_options, add));
    table.Check(&report->findings, &tally.checks);
  }
  std::stable_partition(report->findings.begin(), report->findings.end(), [](const ConsistencyFinding& f) {
    return f.kind == ConsistencyFinding::Kind::kInconsistency;
  });
  ConsistencyCounts& n = report->counts;
  n.steps = steps.size();
  n.ranks = ranks.size();
  for (const ConsistencyFinding& f : report->findings) {
    ++(f.kind == ConsistencyFinding::Kind::kInconsistency ? n.inconsistencies : n.suspects);
  }
  report->mode = ModeOf(options, tally);
  report->checks = internal::DescribeChecks(options, tally.checks, tally.parameters.size(), tally.grouped_parameters.size());
  report->nothing_checked =
      std::none_of(report->checks.begin(), report->checks.end(), [](const ConsistencyCheck& c) { return c.ran; });
  report->gate_failed = n.inconsistencies > 0 || (options.fail_on_suspect && n.suspects > 0) || report->nothing_checked ||
                        !report->ranks_without_dump_json.empty();
  return Status::Ok();
}

// The outputs under their final names, summary.json last: a run that wrote one wrote all.
Status WriteOutputs(const ConsistencyOptions& options, ConsistencyReport* report) {
  const std::string stem = (fs::path(options.output_dir) / ("consistency_result_" + OutputTimestamp())).string();
  report->csv_file = stem + ".csv";
  report->xlsx_file = stem + ".xlsx";
  MSP_RETURN_IF_ERROR(internal::WriteConsistencyCsv(report->csv_file, report->findings));
  MSP_RETURN_IF_ERROR(internal::WriteConsistencyXlsx(report->xlsx_file, *report));
  if (options.write_html) {
    report->html_file = (fs::path(options.output_dir) / ("consistency_report_" + OutputTimestamp() + ".html")).string();
    MSP_RETURN_IF_ERROR(internal::WriteConsistencyPage(report->html_file, options, *report));
  }
  report->summary_file = (fs::path(options.output_dir) / "summary.json").string();
  return internal::WriteConsistencySummary(report->summary_file, options, *report);
}

// Mistakes are caught before any dump is read: the output directory first, then the inputs.
Result<std::vector<ConsistencyStep>> FindSteps(const ConsistencyOptions& options, const JobContext& context,
                                               std::vector<std::string>* without_dump_json) {
  MSP_RETURN_IF_ERROR(CheckOutputOutsideInputs(options.output_dir, /*is_dir=*/true, {options.input}));
  std::error_code ec;
  fs::create_directories(options.output_dir, ec);
  if (ec || !fs::is_directory(options.output_dir)) {
    return Status::IOError(options.output_dir, "cannot create the output directory" + (ec ? ": " + ec.message() : ""));
  }
  return internal::FindConsistencySteps(options.input, context.warn, without_dump_json);
}

}  // namespace

Result<ConsistencyReport> RunConsistency(const ConsistencyOptions& options, const JobContext& context) {
  ConsistencyReport report;
  Result<std::vector<ConsistencyStep>> steps = FindSteps(options, context, &report.ranks_without_dump_json);
  // Several processes stop together, with the first failure in process order: the one a single
  // process would report, even when only one process met it.
  if (Several(context)) MSP_RETURN_IF_ERROR(AgreeOnFailure(*context.cluster, steps.status()));
  MSP_RETURN_IF_ERROR(steps.status());
  MSP_RETURN_IF_ERROR(CheckSteps(options, context, *steps, &report));
  if (Several(context) && !context.cluster->root()) return report;  // process 0 holds the findings and writes
  MSP_RETURN_IF_ERROR(WriteOutputs(options, &report));
  return report;
}

}  // namespace msprobe::compare
