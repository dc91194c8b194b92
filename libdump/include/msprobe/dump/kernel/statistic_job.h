// msprobe-dump statistic: a MindSpore-style statistic.csv (docs/kernel_dump.md §4.5 a, statistic_csv.h)
// beside the tensor files of every npy kernel dump directory of a tree (kernel_dump_tree.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/dump/util/job_context.h"
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

// The directories done, in natural path order, up to the first that could not be: its statistic.csv
// exists already (without `force`) or one of its tensor files cannot be read. The job stops there,
// leaving the directories after it as they are.
struct KernelStatisticReport {
  std::vector<WrittenStatisticCsv> written;
  std::optional<Status> stopped;  // why the job stopped, naming the file; nullopt: every directory was done
};

// Errors: the tree cannot be read, or holds no tensor files at all. Progress: ("tensor files", done,
// in all), over the whole tree.
Result<KernelStatisticReport> RunKernelStatistic(const KernelStatisticOptions& options, const JobContext& context = {});

}  // namespace msprobe
