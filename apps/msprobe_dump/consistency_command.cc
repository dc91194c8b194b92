// msprobe-dump consistency: the ranks checked against each other; the files written on stdout, a line
// of counts and the first inconsistency on stderr (the files and counts left out with -q). Under
// mpirun the processes share the reading (docs/distributed.md §9) and process 0 prints.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "common/cluster_session.h"
#include "common/exit_codes.h"
#include "common/progress.h"
#include "common/stderr_report.h"
#include "msprobe/compare/consistency/consistency_job.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {
namespace {

int PrintReport(const compare::ConsistencyReport& report, const cli::CommonOptions& common) {
  // README "Output streams": the paths on stdout, the summary on stderr; even with -q, the reason for the exit code.
  const compare::ConsistencyCounts& n = report.counts;
  if (!common.quiet) {
    for (const std::string* file : {&report.csv_file, &report.xlsx_file, &report.html_file, &report.summary_file}) {
      if (!file->empty()) fmt::print("{}\n", *file);
    }
    cli::PrintErr("{} step(s), {} rank(s), {} dump(s): {} inconsistency(ies), {} suspect(s)\n",
                  n.steps, n.ranks, n.dumps, n.inconsistencies, n.suspects);
  }
  if (n.inconsistencies > 0) {
    const compare::ConsistencyFinding& f = report.findings.front();
    cli::PrintErr("first inconsistency: step {}, rank {}, {} ({})\n", f.step, f.rank, f.name,
                  f.reason);
  }
  if (report.nothing_checked) {
    // Even with -q: the reason for exit 1 when no value was compared at all.
    std::vector<std::string> why;
    for (const compare::ConsistencyCheck& c : report.checks) why.push_back(fmt::format("{}: {}", c.name, c.detail));
    cli::PrintErr("nothing checked: {}\n", fmt::join(why, "; "));
  }
  if (!report.ranks_without_dump_json.empty()) {
    // Even with -q: the ranks the check could not read, the reason for exit 1 when all else agrees.
    cli::PrintErr("{} rank folder(s) not checked: no dump.json (was the dump interrupted?); first: {}\n",
                  report.ranks_without_dump_json.size(), report.ranks_without_dump_json.front());
  }
  return report.gate_failed ? cli::kExitGateFailed : cli::kExitOk;
}

Result<compare::ConsistencyOptions> MakeOptions(const ConsistencyArgs& args) {
  compare::ConsistencyOptions options;
  options.input = args.input;
  options.output_dir = args.output_dir;
  options.tool_version = MSPROBE_VERSION;
  MSP_ASSIGN_OR_RETURN(options.data_parallel, compare::ParseDataParallel(args.data_parallel));
  options.grads_reduced = args.grads_reduced;
  options.z_threshold = args.z_threshold;
  options.recompute_stats = args.recompute_stats;
  options.fail_on_suspect = args.fail_on == "suspect";
  options.write_html = args.html;
  return options;
}

}  // namespace

int RunConsistencyCommand(const ConsistencyArgs& args, const cli::CommonOptions& common, int* argc, char*** argv) {
  // Only this subcommand joins an MPI launcher's world: `run` starts other programs, which may be MPI's.
  cli::ClusterSession session(argc, argv);
  return session.Run("msprobe-dump", [&] {
    const auto threads = session.ApplyThreads(common);
    cli::ProgressBar bar("consistency", common.quiet || !session.root());
    JobContext ctx{.progress = bar.Callback(), .cluster = session.cluster()};
    if (session.root()) {
      ctx.warn = cli::PrintWarnings("msprobe-dump", &bar);
    }
    const Result<compare::ConsistencyOptions> options = MakeOptions(args);
    Result<compare::ConsistencyReport> report =
        options.ok() ? compare::RunConsistency(*options, ctx) : Result<compare::ConsistencyReport>(options.status());
    bar.Clear();
    int code = cli::kExitOk;
    if (!report.ok()) {
      // Every process holds the same error (the job agrees on it); process 0 reports it.
      code = session.root() ? cli::ReportAndExit("msprobe-dump", report.status()) : cli::ExitCodeFor(report.status());
    } else if (session.root()) {
      code = PrintReport(*report, common);
    }
    return session.AgreeExitCode(code);
  });
}

}  // namespace msprobe::dump_app
