// msprobe-dump statistic DIR: each statistic.csv written on stdout, its tensors counted on stderr (README,
// "Output streams"); kernel/statistic_job.h does the work.
#include <fmt/format.h>

#include "common/exit_codes.h"
#include "common/progress.h"
#include "common/stderr_report.h"
#include "msprobe/dump/kernel/statistic_job.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {

int RunStatistic(const StatisticArgs& args, const cli::CommonOptions& common) {
  const Result<KernelStatisticReport> report = [&] {
    cli::ProgressBar bar("statistic", common.quiet);  // cleared before the report is printed
    return RunKernelStatistic({args.dir, args.force}, {.progress = bar.Callback()});
  }();
  if (!report.ok()) return cli::ReportAndExit("msprobe-dump", report.status());
  // A run stopped by an error ends with that error's line alone.
  if (!common.quiet && !report->stopped) {
    uint64_t tensors = 0;
    for (const WrittenStatisticCsv& w : report->written) {
      fmt::print("{}/statistic.csv\n", w.dir);
      tensors += w.tensors;
    }
    cli::PrintErr("{} statistic.csv file(s) written: {} tensors\n", report->written.size(), tensors);
  }
  return cli::ReportAndExit("msprobe-dump", report->stopped.value_or(Status::Ok()));
}

}  // namespace msprobe::dump_app
