// msprobe-dump recompute: each forward API call's self error; the result files on stdout, a summary
// line and the first call beyond its tolerance on stderr (README, "Output streams").
#include <fmt/format.h>

#include "common/exit_codes.h"
#include "common/progress.h"
#include "common/stderr_report.h"
#include "msprobe/compare/recompute/recompute_job.h"
#include "msprobe/ops/reference/gemm_isa.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {

int RunRecomputeCommand(const RecomputeArgs& args, const cli::CommonOptions& common) {
  // A MSPROBE_ISA this CPU cannot honour is refused rather than run on another set (docs/ops.md §4).
  if (const Result<std::string_view> isa = ops::GemmIsa(); !isa.ok()) {
    return cli::ReportUsageError("msprobe-dump", isa.status().ToString());
  }
  compare::RecomputeOptions options;
  options.input = args.path;
  options.output_dir = args.output_dir;
  options.tool_version = MSPROBE_VERSION;
  options.write_html = args.html;
  Result<compare::RecomputeReport> report = [&] {
    cli::ProgressBar bar("recompute", common.quiet);  // cleared before the report is printed
    return compare::RunRecompute(options, {.progress = bar.Callback()});
  }();
  if (!report.ok()) return cli::ReportAndExit("msprobe-dump", report.status());
  if (!common.quiet) {
    for (const compare::RecomputePart& part : report->parts) {
      for (const std::string& file : part.outputs) fmt::print("{}\n", file);
    }
    if (!report->html_file.empty()) fmt::print("{}\n", report->html_file);
    fmt::print("{}\n", report->summary_file);
    const compare::RecomputeCounts& n = report->counts;
    cli::PrintErr("{} API call(s): {} ok, {} exceed their tolerance, {} unsupported, {} unreadable\n", n.calls, n.ok,
                  n.exceeds, n.unsupported, n.unreadable);
  }
  // Even with -q: the reasons for the exit code, as compare's gate line.
  int exit_code = cli::kExitOk;
  if (report->first_exceeding) {
    cli::PrintErr("first exceeding: {} ({})\n", report->first_exceeding->api, report->first_exceeding->dump_json);
    exit_code = cli::kExitGateFailed;
  }
  if (!report->dumps_without_calls.empty()) {  // nor do dumps of which nothing was checked
    cli::PrintErr("{} dump(s) not checked: no forward API call (an interrupted rank?); first: {}\n",
                  report->dumps_without_calls.size(), report->dumps_without_calls.front());
    exit_code = cli::kExitGateFailed;
  }
  if (report->first_unreadable) {  // calls not checked never pass (docs/ops.md §6)
    cli::PrintErr("{} call(s) not checked: a tensor could not be read (first: {})\n", report->counts.unreadable,
                  report->first_unreadable->reason);
    exit_code = cli::kExitGateFailed;
  }
  return exit_code;
}

}  // namespace msprobe::dump_app
