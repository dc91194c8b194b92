#include "msprobe/dump/kernel/statistic_job.h"

#include <filesystem>

#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/kernel/kernel_dump_tree.h"
#include "msprobe/dump/kernel/statistic_csv.h"
#include "msprobe/dump/tensor/tensor_source.h"
#include "msprobe/dump/tensor/tensor_stats.h"

namespace msprobe {
namespace {

Status WriteStatistic(const KernelDumpDir& dir, bool force, const std::function<void()>& tensor_done) {
  const std::string path = (std::filesystem::path(dir.path) / "statistic.csv").string();
  if (!dir.statistic_csv.empty() && !force) {
    return Status::InvalidInput(path, "exists already (use --force to replace it)");
  }
  std::string text(kStatisticCsvHeader);
  StatsOptions options;
  options.crc32 = false;
  options.xor64 = false;
  for (const KernelDumpFile& file : dir.tensors) {
    MSP_ASSIGN_OR_RETURN(TensorInfo info, ReadKernelDumpTensor(file));
    MSP_ASSIGN_OR_RETURN(TensorSource source, TensorSource::Open(info));
    MSP_ASSIGN_OR_RETURN(TensorStats stats, ComputeStats(source, options));
    AppendStatisticCsvRow(&text, file.name, info, stats);
    tensor_done();
  }
  return WriteFileAtomically(path, text);
}

}  // namespace

KernelStatisticReport RunKernelStatistic(const KernelStatisticOptions& options,
                                         const KernelStatisticProgress& progress) {
  KernelStatisticReport report;
  Result<std::vector<KernelDumpDir>> dirs = FindKernelDumpDirs(options.dir);
  if (!dirs.ok()) {
    report.status = dirs.status();
    return report;
  }
  uint64_t total = 0, done = 0;
  for (const KernelDumpDir& dir : *dirs) total += dir.tensors.size();
  const auto tensor_done = [&] {
    if (progress) progress(++done, total);
  };
  for (const KernelDumpDir& dir : *dirs) {
    if (dir.tensors.empty()) continue;
    report.status = WriteStatistic(dir, options.force, tensor_done);
    if (!report.status.ok()) return report;
    report.written.push_back({dir.path, dir.tensors.size()});
  }
  if (report.written.empty()) {
    report.status = Status::InvalidInput(options.dir, "no kernel dump tensor files found");
  }
  return report;
}

}  // namespace msprobe
