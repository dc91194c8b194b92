// msprobe-dump statistic DIR: a MindSpore-style statistic.csv (kernel_dump.md §4.5 a) beside the
// tensor files of every npy kernel dump directory under DIR.
#include <fmt/format.h>

#include <filesystem>

#include "common/exit_codes.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/kernel/kernel_dump_tree.h"
#include "msprobe/dump/tensor/tensor_source.h"
#include "msprobe/dump/tensor/tensor_stats.h"
#include "msprobe_dump/commands.h"

namespace msprobe::dump_app {
namespace {

// MindSpore's fixed prefix, then the categories we compute, in MindSpore's header names.
constexpr std::string_view kHeader =
    "Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,"
    "Max Value,Min Value,Avg Value,Count,Nan Count,Negative Inf Count,Positive Inf Count,Zero Count,"
    "L2Norm Value\n";

std::string Number(const TensorStats& s, double v) { return s.has_values ? fmt::format("{}", v) : ""; }

// One row; like MindSpore's, every field is followed by ',' and the shape is quoted "(2,3)".
std::string Row(const KernelDumpName& n, const TensorInfo& info, const TensorStats& s) {
  return fmt::format("{},{},{},{},{},{},{},{},{},\"({})\",{},{},{},{},{},{},{},{},{},\n", n.op_type, n.op_name,
                     n.task_id, n.stream_id, n.timestamp, n.io(), n.slot, ByteSize(info.dtype, s.numel),
                     Name(info.dtype), fmt::join(info.shape, ","), Number(s, s.max), Number(s, s.min),
                     Number(s, s.mean), s.numel, s.nan_count, s.neg_inf_count, s.pos_inf_count, s.zero_count,
                     Number(s, s.norm));
}

Status WriteStatistic(const KernelDumpDir& dir, bool force) {
  const std::string path = (std::filesystem::path(dir.path) / "statistic.csv").string();
  if (!dir.statistic_csv.empty() && !force) {
    return Status::InvalidInput(path, "exists already (use --force to replace it)");
  }
  std::string text(kHeader);
  StatsOptions options;
  options.crc32 = false;
  options.xor64 = false;
  for (const KernelDumpFile& file : dir.tensors) {
    MSP_ASSIGN_OR_RETURN(TensorInfo info, ReadKernelDumpTensor(file));
    MSP_ASSIGN_OR_RETURN(TensorSource source, TensorSource::Open(info));
    MSP_ASSIGN_OR_RETURN(TensorStats stats, ComputeStats(source, options));
    text += Row(file.name, info, stats);
  }
  return WriteFileAtomically(path, text);
}

}  // namespace

int RunStatistic(const StatisticArgs& args, const cli::CommonOptions& common) {
  Result<std::vector<KernelDumpDir>> dirs = FindKernelDumpDirs(args.dir);
  if (!dirs.ok()) return cli::ReportAndExit("msprobe-dump", dirs.status());
  size_t written = 0;
  for (const KernelDumpDir& dir : *dirs) {
    if (dir.tensors.empty()) continue;
    const Status st = WriteStatistic(dir, args.force);
    if (!st.ok()) return cli::ReportAndExit("msprobe-dump", st);
    if (!common.quiet) fmt::print("{}/statistic.csv: {} tensors\n", dir.path, dir.tensors.size());
    ++written;
  }
  if (written == 0) {
    return cli::ReportAndExit("msprobe-dump", Status::InvalidInput(args.dir, "no kernel dump tensor files found"));
  }
  return cli::kExitOk;
}

}  // namespace msprobe::dump_app
