// Finds the per-rank compare results to merge in one directory (docs/formats.md §5.2), not recursively:
//   compare_result_rank{N}[-rank{N}]_{14 digits}.xlsx   msprobe's names, and ours
//   compare_result_rank{N}_{14 digits}.csv               ours (msprobe ignores CSVs)
// Any other .xlsx aborts the run as msprobe does ("Wrong compare result name: …"), except the
// single-rank names compare_result_{rank|rank-rank}_{ts}.xlsx, skipped with a warning; other .csv
// files are ignored. When a result exists as both .csv and .xlsx with the same stem (our compare
// writes both) the .xlsx is read. Two different results for one rank are refused (msprobe would
// emit rank{N}_x / rank{N}_y columns). A result that is not a readable regular file below 1 GiB is
// dropped on its own with a warning.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/merge/merge_job.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct MergeInput {
  uint64_t rank = 0;
  std::string path;
};

// The rank of a file name of a mergeable result, or nullopt.
std::optional<uint64_t> MergeResultRank(std::string_view file_name);

// Errors: the directory is missing or unreadable; a wrongly named .xlsx; two results for one rank;
// fewer than two results ("Number of compare result is no more than 1, no need to merge.").
// Returns the results in ascending rank order.
Result<std::vector<MergeInput>> DiscoverMergeInputs(const std::string& input_dir, const Warn& warn);

}  // namespace msprobe::compare
