// msprobe-dump data2db (msprobe data2db): the trend database of a dump root or monitor output; with
// --html its trend page too. The databases written (and pages) on stdout, a line of counts for each
// on stderr (README, "Output streams").
#include <fmt/format.h>

#include "common/exit_codes.h"
#include "common/progress.h"
#include "common/stderr_report.h"
#include "msprobe/compare/trend/data2db_job.h"
#include "msprobe/compare/trend/trend_page.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {
namespace {

void PrintSummary(const compare::TrendDbSummary& db, bool quiet) {
  if (quiet) return;
  fmt::print("{}\n", db.path);
  cli::PrintErr("{}: {} file(s), {} row(s), {} target(s), {} tag(s); ranks 0-{}, steps {}-{}\n", db.path, db.files, db.rows,
                db.targets, db.tags, db.max_rank, db.min_step, db.max_step);
}

}  // namespace

int RunData2Db(const Data2DbArgs& args, const cli::CommonOptions& common) {
  compare::Data2DbOptions options;
  options.db_dir = args.db;
  options.data_dir = args.data;
  options.format = args.format == "dump"      ? compare::TrendFormat::kDump
                   : args.format == "monitor" ? compare::TrendFormat::kMonitor
                                              : compare::TrendFormat::kAuto;
  options.mapping_file = args.mapping;
  options.micro_step = args.micro_step == "true" || args.micro_step == "True";

  cli::ProgressBar bar("data2db", common.quiet);
  JobContext ctx;
  ctx.progress = [&](std::string_view, uint64_t done, uint64_t total) { bar.Update(done, total); };
  ctx.warn = cli::PrintWarnings("msprobe-dump", &bar);
  Result<compare::Data2DbReport> report = compare::RunData2Db(options, ctx);
  bar.Clear();
  if (!report.ok()) return cli::ReportAndExit("msprobe-dump", report.status());
  compare::TrendPageOptions page;
  for (const auto* db : {&report->dump_db, &report->monitor_db}) {
    if (!db->has_value()) continue;
    PrintSummary(**db, common.quiet);
    if (!args.html) continue;
    page.input = (*db)->path;
    Result<compare::TrendPageReport> pages = compare::WriteTrendPages(page, ctx);
    if (!pages.ok()) return cli::ReportAndExit("msprobe-dump", pages.status());
    if (common.quiet) continue;
    for (const std::string& file : pages->pages) fmt::print("{}\n", file);
  }
  return cli::kExitOk;
}

}  // namespace msprobe::dump_app
