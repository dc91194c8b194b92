// msprobe-dump trend DB_OR_DIR: the trend page of a trend database (ours or msprobe's); the pages
// written on stdout, the rows shown on stderr (README, "Output streams").
#include <fmt/format.h>

#include "common/exit_codes.h"
#include "common/progress.h"
#include "common/stderr_report.h"
#include "msprobe/compare/trend/trend_page.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {

int RunTrendPage(const TrendArgs& args, const cli::CommonOptions& common) {
  compare::TrendPageOptions options;
  options.input = args.input;
  options.output = args.output;
  options.first_step = args.first_step;
  options.last_step = args.last_step;
  options.ranks = args.ranks;
  options.max_rows = args.max_rows;
  JobContext ctx;
  ctx.warn = cli::PrintWarnings("msprobe-dump", nullptr);
  Result<compare::TrendPageReport> report = compare::WriteTrendPages(options, ctx);
  if (!report.ok()) return cli::ReportAndExit("msprobe-dump", report.status());
  if (common.quiet) return cli::kExitOk;
  for (const std::string& page : report->pages) fmt::print("{}\n", page);
  cli::PrintErr("{} row(s) shown\n", report->rows);
  return cli::kExitOk;
}

}  // namespace msprobe::dump_app
