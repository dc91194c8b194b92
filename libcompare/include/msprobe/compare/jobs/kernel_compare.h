// Compare of two MindSpore graph-mode kernel dumps (docs/kernel_dump.md §6, msprobe
// ms_graph_compare): the lowest-level dump directories of both trees grouped by (rank, step), their
// tensors paired by "{op_name}.{task_id}.{io}.{slot}" and occurrence, then NPY mode (tensor files:
// statistics and the tensor metrics) or STATISTIC mode (statistic.csv rows: differences of the
// statistics). One result per (rank, step), written through the framework compare's writers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "msprobe/compare/output/result_table.h"
#include "msprobe/dump/kernel/kernel_dump_tree.h"
#include "msprobe/dump/status.h"

namespace msprobe::compare {

struct KernelCompareOptions {
  std::string target_dir, golden_dir;  // -tp (NPU) and -gp (bench) roots
  std::string output_dir;              // created when missing
  std::vector<int64_t> ranks, steps;   // --rank / --step; empty: all
  bool csv = true, xlsx = true;
};

// The table of one (rank, step): the directories of each side that share it. InvalidInput when one
// side holds tensor files and the other only statistic.csv, or a statistic.csv is malformed.
Result<ResultTable> CompareKernelDirs(const std::vector<KernelDumpDir>& npu, const std::vector<KernelDumpDir>& bench);

// Finds both trees' dump directories, compares every (rank, step) both have (filtered by the
// options) and writes compare_result_{rank}_{step}_{YYYYmmddHHMMSS}.csv/.xlsx into output_dir.
// Returns the files written. InvalidInput when the trees share no (rank, step).
Result<std::vector<std::string>> RunKernelCompare(const KernelCompareOptions& options);

}  // namespace msprobe::compare
