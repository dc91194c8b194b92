// msprobe-dump statistic DIR: one line per statistic.csv written (kernel/statistic_job.h does the work).
#include <fmt/format.h>

#include "common/exit_codes.h"
#include "common/progress.h"
#include "msprobe/dump/kernel/statistic_job.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {

int RunStatistic(const StatisticArgs& args, const cli::CommonOptions& common) {
  const Result<KernelStatisticReport> report = [&] {
    cli::ProgressBar bar("statistic", common.quiet);  // cleared before the report is printed
    return RunKernelStatistic({args.dir, args.force}, {.progress = bar.Callback()});
  }();
  if (!report.ok()) return cli::ReportAndExit("msprobe-dump", report.status());
  if (!common.quiet) {
    for (const WrittenStatisticCsv& w : report->written) fmt::print("{}/statistic.csv: {} tensors\n", w.dir, w.tensors);
  }
  return cli::ReportAndExit("msprobe-dump", report->stopped.value_or(Status::Ok()));
}

}  // namespace msprobe::dump_app
