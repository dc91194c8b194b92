// msprobe-compare's whole job (compare.md §1.2, §7): decide what the two paths are (two json files,
// two step dirs with rank*/proc* pairs, graph/pynative mix dirs, or two rank dirs), compare each pair
// and write its results.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "msprobe/dump/status.h"

namespace msprobe::compare {

struct CompareOptions {
  std::string target_path, golden_path;
  std::string output_dir = "./output";
  bool fuzzy_match = false;
  std::string data_mapping;            // -dm yaml
  bool cell_mapping = false;           // -cm given (with or without a yaml)
  std::string cell_mapping_yaml;
  bool api_mapping = false;            // -am given (with or without a yaml)
  std::string api_mapping_yaml;
  bool write_csv = true, write_xlsx = true, write_json = false;
  std::string stack_path;              // -i compare.json's stack_path; empty: stack.json beside the NPU json
};

// What one compared pair produced.
struct PairResult {
  std::string target_json, golden_json;
  std::vector<std::string> outputs;    // files written
  uint64_t rows = 0, passed = 0, warnings = 0, errors = 0;
  std::string skipped_reason;          // non-empty when nothing was written for this pair
};

struct CompareReport {
  std::vector<PairResult> pairs;
};

// Progress of the current pair: (label, done, total).
using CompareProgress = std::function<void(const std::string&, uint64_t, uint64_t)>;

Result<CompareReport> RunCompare(const CompareOptions& options, const CompareProgress& progress = {});

}  // namespace msprobe::compare
