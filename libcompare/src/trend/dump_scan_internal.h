// Which dump.json files a dump import reads, and as which step and rank (docs/trend.md §4), as
// msprobe's data2db finds them: step<N> directories under the root, rank<N> and proc<N> directories
// holding a dump.json under each, N read as Python's int() reads it; ranks keep their number and
// procs are numbered after the highest rank of their step.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "msprobe/dump/util/job_context.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

struct TrendRankDir {
  int64_t rank = 0;
  std::string dir;  // holds dump.json (and construct.json)
};

struct TrendStepDir {
  int64_t step = 0;
  std::string dir;
  std::vector<TrendRankDir> ranks;  // rank<N> by N, then proc<N> by N; never empty
};

struct DumpRootScan {
  std::vector<TrendStepDir> steps;  // by step number
  bool any_step_dir = false;        // a step<N> directory was there, with or without ranks
  // rank<N> and proc<N> directories without their dump.json (interrupted ranks), passed over.
  std::vector<std::string> ranks_without_dump_json;
};

// The ranks of one step directory, numbered as msprobe numbers them (above); empty when it holds
// none. Rank directories without their dump.json are told to `warn` and added to `without_dump_json`.
// Errors: the directory cannot be read.
Result<std::vector<TrendRankDir>> ScanStepDir(const std::filesystem::path& step_dir, const Warn& warn,
                                              std::vector<std::string>* without_dump_json);

// Errors: `root` is not a readable directory, two step directories with one number ("step1",
// "step01"). Directories passed over are told to `warn`.
Result<DumpRootScan> ScanDumpRoot(const std::string& root, const Warn& warn);

}  // namespace msprobe::compare::internal
