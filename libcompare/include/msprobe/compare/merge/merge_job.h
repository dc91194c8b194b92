// msprobe-merge's whole job, msprobe merge_result's semantics (docs/formats.md §5): find the per-rank
// results, load the config, read each result (in parallel), pick the rows of the configured APIs
// and the values of the compare indexes, replace "N/A"/"unsupported"/"Nan" by
// "NPU:{NPU max}  Bench:{Bench max}", join the ranks on NPU Name in first-appearance order and
// write multi_ranks_compare_merge_{ts}.xlsx.
//
// Quirks consciously fixed (§5.8): an unusable result (unknown header, md5, indexes its mode lacks,
// unreadable) is dropped on its own, never with its neighbours; the default index list comes from
// the lowest-rank usable result; `api` items are literal text (msprobe escapes only their dots and
// takes the rest as a regular expression), still searched anywhere in NPU Name followed by '.';
// values that look like formulas are written as text instead of aborting the run; the
// inconsistency warning lists the configured indexes the mode lacks (msprobe lists the reverse).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "msprobe/dump/util/job_context.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct MergeOptions {
  std::string input_dir, output_dir, config_path;
};

struct MergeReport {
  std::string output_path;
  std::vector<uint64_t> ranks;          // merged, ascending
  std::vector<std::string> sheets;      // compare indexes, one sheet each (before any split)
  uint64_t rows = 0;                    // NPU names in the merged sheets
};

// Errors carry msprobe's messages: config problems (§5.4), a wrongly named .xlsx, fewer than two
// results, "Nothing to merge." when every result was dropped or empty. `context`: msprobe's warnings
// as they happen (the file concerned and the message), progress ("results", read and in all). With a
// cluster of several processes (docs/distributed.md §6), every process calls it alike: they share
// the reading, and process 0 writes the workbook and returns the report (the others an empty one).
Result<MergeReport> RunMerge(const MergeOptions& options, const JobContext& context = {});

// "multi_ranks_compare_merge_{YYYYmmddHHMMSS}.xlsx" for the local time now.
std::string MergeOutputName();

}  // namespace msprobe::compare
