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

Result<KernelStatisticReport> RunKernelStatistic(const KernelStatisticOptions& options, const JobContext& context) {
  MSP_ASSIGN_OR_RETURN(std::vector<KernelDumpDir> dirs, FindKernelDumpDirs(options.dir));
  uint64_t total = 0, done = 0;
  for (const KernelDumpDir& dir : dirs) total += dir.tensors.size();
  if (total == 0) return Status::InvalidInput(options.dir, "no kernel dump tensor files found");
  const auto tensor_done = [&] {
    if (context.progress) context.progress("tensor files", ++done, total);
  };
  KernelStatisticReport report;
  for (const KernelDumpDir& dir : dirs) {
    if (dir.tensors.empty()) continue;
    Status written = WriteStatistic(dir, options.force, tensor_done);
    if (!written.ok()) {
      report.stopped = std::move(written);
      break;
    }
    report.written.push_back({dir.path, dir.tensors.size()});
  }
  return report;
}

}  // namespace msprobe
