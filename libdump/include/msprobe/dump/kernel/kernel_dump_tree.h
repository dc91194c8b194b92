// Kernel npy dump trees (docs/kernel_dump.md §4.4, §5): the lowest-level directories holding tensor
// files and statistic.csv, their rank and step recovered from the path, long names resolved through
// mapping.csv, and each tensor file described as a TensorInfo (npy, or raw bytes in the name's dtype).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/dump/kernel/kernel_dump_name.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/dump/tensor/tensor.h"

namespace msprobe {

struct KernelDumpFile {
  std::string path;     // the file as it is on disk (maybe a mapped 32-digit name)
  KernelDumpName name;  // what its original name says
};

struct KernelDumpDir {
  std::string path;
  std::optional<int64_t> rank, step;  // step: the iteration the directory holds
  std::vector<KernelDumpFile> tensors;  // by timestamp, then natural name order
  std::string statistic_csv;            // its path, or "" when the directory has none
};

// Rank and step of a dump directory from its path components (§5, the recommended matching):
// `rank_N` gives the rank and `step_N`/`stepN` the step, the last such component winning; without a
// step component the last component, when all digits, is the iteration; without a rank component
// the component after a 14-digit time directory is the device id, else msprobe's fallback
// (4th-, then 3rd-from-last all-digit component).
struct RankStep {
  std::optional<int64_t> rank, step;
};
RankStep RankStepOfPath(const std::string& dir_path);

// Every directory under `root` (itself included, at most 32 levels down, symlinks not followed) that
// holds kernel dump tensor files or a statistic.csv, in natural path order. Files whose names (after
// mapping.csv) are not kernel dump tensor names are ignored. NotFound when root does not exist.
Result<std::vector<KernelDumpDir>> FindKernelDumpDirs(const std::string& root);

// The tensor a dump file holds: its .npy header, or for a raw file the whole file as a 1-D tensor of
// the name's dtype (InvalidInput when the size is not a whole number of elements).
Result<TensorInfo> ReadKernelDumpTensor(const KernelDumpFile& file);

}  // namespace msprobe
