// msprobe overflow_check (docs/compare.md §11): which op of one dump's ranks first produced an inf or
// NaN from clean inputs, without a golden run: before any communication, through the ranks'
// communication graph, or after it; written as msprobe writes it, anomaly_analyze_{ns}.json.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/first_diff/diff_analyze.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct OverflowCheckOptions {
  std::string input_dir;                // a step directory: rank{N}/ (or one proc*/) with dump.json,
                                        // construct.json and stack.json
  std::string output_dir = "./output";  // created when missing (its parent must exist)
};

struct OverflowNode {
  int rank = 0;
  std::string op_name;
};

struct OverflowCheckReport {
  std::vector<int> ranks;   // the ranks read, in the order searched (ascending)
  std::vector<int> ranks_without_data;  // msprobe warns "Rank {rank} has no dump data!"
  DiffStage stage = DiffStage::kNone;
  std::vector<OverflowNode> nodes;  // the anomalies found, in the json's order
  std::string analyze_file;         // "" when nothing was found (no file, as msprobe)
};

// Errors: the input is not a directory, a rank directory lacks one of its three files or cannot be
// read, the first rank's dump is not pytorch's (msprobe's message), a communication op's name has
// fewer than four parts, the output directory cannot be made or written.
Result<OverflowCheckReport> RunOverflowCheck(const OverflowCheckOptions& options);

// A dump.json's text read as the check reads a rank (tests, fuzzing): how many of its entries are
// anomalies (an output overflowing from clean inputs), or why it cannot be read.
Result<size_t> CountOverflowAnomalies(std::string_view dump_json, int rank, const std::string& source);

}  // namespace msprobe::compare
