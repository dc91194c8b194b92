// msprobe-dump statistic: a MindSpore-style statistic.csv (docs/kernel_dump.md §4.5 a, statistic_csv.h)
// beside the tensor files of every npy kernel dump directory of a tree (kernel_dump_tree.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe {

struct KernelStatisticOptions {
  std::string dir;     // a kernel dump tree
  bool force = false;  // replace an existing statistic.csv
};

struct WrittenStatisticCsv {
  std::string dir;  // the directory; its statistic.csv was written
  uint64_t tensors = 0;
};

// The directories done, in natural path order, then what stopped the job: the tree cannot be read,
// a statistic.csv exists already (without `force`), a tensor file cannot be read, or the tree holds
// no tensor files at all. Ok when every directory was done.
struct KernelStatisticReport {
  std::vector<WrittenStatisticCsv> written;
  Status status;
};

// Progress: tensor files done and in all, over the whole tree.
using KernelStatisticProgress = std::function<void(uint64_t done, uint64_t total)>;

KernelStatisticReport RunKernelStatistic(const KernelStatisticOptions& options,
                                         const KernelStatisticProgress& progress = {});

}  // namespace msprobe
