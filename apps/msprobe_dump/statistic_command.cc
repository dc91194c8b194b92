// msprobe-dump statistic DIR: one line per statistic.csv written (kernel/statistic_job.h does the work).
#include <fmt/format.h>

#include "common/exit_codes.h"
#include "common/progress.h"
#include "msprobe/dump/kernel/statistic_job.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {

int RunStatistic(const StatisticArgs& args, const cli::CommonOptions& common) {
  const KernelStatisticReport report = [&] {
    cli::ProgressBar bar("statistic", common.quiet);  // cleared before the report is printed
    return RunKernelStatistic({args.dir, args.force}, [&](uint64_t done, uint64_t total) { bar.Update(done, total); });
  }();
  if (!common.quiet) {
    for (const WrittenStatisticCsv& w : report.written) fmt::print("{}/statistic.csv: {} tensors\n", w.dir, w.tensors);
  }
  return cli::ReportAndExit("msprobe-dump", report.status);
}

}  // namespace msprobe::dump_app
