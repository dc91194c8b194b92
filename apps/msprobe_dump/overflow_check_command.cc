// msprobe-dump overflow-check: msprobe's overflow_check; the analyze file on stdout, the anomalies found
// (or msprobe's words for none) on stderr.
#include <fmt/format.h>

#include "common/exit_codes.h"
#include "common/stderr_report.h"
#include "msprobe/compare/first_diff/overflow_check.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {

int RunOverflowCheckCommand(const OverflowCheckArgs& args, const cli::CommonOptions& common) {
  const Result<compare::OverflowCheckReport> report =
      compare::RunOverflowCheck({args.input_dir, args.output_dir.empty() ? "./output" : args.output_dir});
  if (!report.ok()) return cli::ReportAndExit("msprobe-dump", report.status());
  for (int rank : report->ranks_without_data) cli::PrintErr("msprobe-dump: warning: Rank {} has no dump data!\n", rank);
  if (common.quiet) return cli::kExitOk;
  if (!report->analyze_file.empty()) fmt::print("{}\n", report->analyze_file);
  if (report->nodes.empty()) {
    cli::PrintErr("Cannot find any anomaly node, no need to generate analyze file.\n");  // msprobe's words
    return cli::kExitOk;
  }
  for (const compare::OverflowNode& node : report->nodes) {
    cli::PrintErr("first anomaly {}: rank {}: {}\n", compare::DiffStageName(report->stage), node.rank, node.op_name);
  }
  return cli::kExitOk;
}

}  // namespace msprobe::dump_app
