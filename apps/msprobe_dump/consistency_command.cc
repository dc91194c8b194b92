// msprobe-dump consistency: the ranks checked against each other; the files written, a line of
// counts and the first inconsistency on stdout (the files only with -q).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "common/exit_codes.h"
#include "common/progress.h"
#include "msprobe/compare/consistency/consistency_job.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {

int RunConsistencyCommand(const ConsistencyArgs& args, const cli::CommonOptions& common) {
  compare::ConsistencyOptions options;
  options.input = args.input;
  options.output_dir = args.output_dir;
  options.tool_version = MSPROBE_VERSION;
  Result<compare::DataParallelSpec> dp = compare::ParseDataParallel(args.data_parallel);
  if (!dp.ok()) return cli::ReportAndExit("msprobe-dump", dp.status());
  options.data_parallel = std::move(*dp);
  options.grads_reduced = args.grads_reduced;
  options.z_threshold = args.z_threshold;
  options.recompute_stats = args.recompute_stats;
  options.fail_on_suspect = args.fail_on == "suspect";
  options.write_html = args.html;
  cli::ProgressBar bar("consistency", common.quiet);
  JobContext ctx;
  ctx.progress = bar.Callback();
  ctx.warn = cli::PrintWarnings("msprobe-dump", &bar);
  Result<compare::ConsistencyReport> report = compare::RunConsistency(options, ctx);
  bar.Clear();
  if (!report.ok()) return cli::ReportAndExit("msprobe-dump", report.status());
  // README "Output streams": the paths on stdout, the summary on stderr; even with -q, the reason for the exit code.
  const compare::ConsistencyCounts& n = report->counts;
  if (!common.quiet) {
    for (const std::string* file : {&report->csv_file, &report->xlsx_file, &report->html_file, &report->summary_file}) {
      if (!file->empty()) fmt::print("{}\n", *file);
    }
    fmt::print(stderr, "{} step(s), {} rank(s), {} dump(s): {} inconsistency(ies), {} suspect(s)\n",
               n.steps, n.ranks, n.dumps, n.inconsistencies, n.suspects);
  }
  if (n.inconsistencies > 0) {
    const compare::ConsistencyFinding& f = report->findings.front();
    fmt::print(stderr, "first inconsistency: step {}, rank {}, {} ({})\n", f.step, f.rank, f.name,
               f.reason);
  }
  if (report->nothing_checked) {
    // Even with -q: the reason for exit 1 when no value was compared at all.
    std::vector<std::string> why;
    for (const compare::ConsistencyCheck& c : report->checks) why.push_back(fmt::format("{}: {}", c.name, c.detail));
    fmt::print(stderr, "nothing checked: {}\n", fmt::join(why, "; "));
  }
  return report->gate_failed ? cli::kExitGateFailed : cli::kExitOk;
}

}  // namespace msprobe::dump_app
