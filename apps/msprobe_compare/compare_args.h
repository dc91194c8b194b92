// msprobe-compare's command line: msprobe G3's flags (docs/compare.md §1.1) plus the older -i compare.json
// and our output switches, turned into compare::CompareOptions.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "common/single_dash_flags.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/jobs/kernel_compare.h"

namespace msprobe::compare_app {

extern const cli::FlagTable kFlags;

struct CompareArgs {
  std::string target, golden, input_json;
  std::string output = "./output";
  std::string mode = "auto";
  bool fuzzy = false;
  std::string data_mapping;
  std::string cell_mapping, api_mapping, layer_mapping;
  CLI::Option* cell_mapping_opt = nullptr;
  CLI::Option* api_mapping_opt = nullptr;
  CLI::Option* layer_mapping_opt = nullptr;
  bool diff_analyze = false, tensor_log = false;
  std::string rank, step;
  bool csv = false, xlsx = false, json = false, html = false;
  std::string fail_on, junit;
  bool fail_on_first_diff = false;
  bool attribute = false;
  bool align = false;
  float align_threshold = compare::kDefaultAlignThreshold;
  CLI::Option* align_threshold_opt = nullptr;
  std::vector<std::string> tensor_postprocess;  // right_matmul yamls, applied in order
  bool consistent_check = false;
  std::string backend;  // fsdp, megatron; alone it changes nothing, as in msprobe
  // msprobe flags of compare features we do not have (docs/compatibility.md, "Compare features of
  // msprobe not in msprobe-compare"): accepted by the parser only to be refused with the reason.
  std::string fusion_rule, close_fusion_rule, quant_fusion_rule;
};

void AddCompareOptions(CLI::App& app, CompareArgs* args);

struct UsageError {
  std::string message;
  int exit_code;
};
// Fills `options`; a usage error (missing paths, a flag not supported yet, a bad compare.json) otherwise.
std::optional<UsageError> ToCompareOptions(const CompareArgs& args, compare::CompareOptions* options);

// --tensor-postprocess: the right_matmul yamls read and their calibration tensors loaded into `rm`;
// `warnings` gets the entries and files that will be skipped. A usage error (exit 3) for a yaml that
// cannot be read.
std::optional<UsageError> LoadTensorPostprocess(const CompareArgs& args, compare::RightMatmul* rm,
                                                std::vector<std::string>* warnings);
// The rows compared as dumped because their right_matmul failed, once per run (and per process).
void PrintRightMatmulFailures(const compare::RightMatmul& rm, const std::string& prefix);

// --rank/--step select the kernel-dump compare (docs/kernel_dump.md §6) of two dump trees.
bool IsKernelCompare(const CompareArgs& args);
std::optional<UsageError> ToKernelCompareOptions(const CompareArgs& args, compare::KernelCompareOptions* options);

// One line per written file, then a summary line (and -da's outcome) unless quiet.
void PrintReport(const compare::CompareReport& report, bool quiet);

// The gates' one-line verdict on stderr, naming the first offending row; returns the exit code
// (kExitGateFailed when a gate fails, kExitOk otherwise).
int ReportGates(const compare::CompareOptions& options, const compare::CompareReport& report);

}  // namespace msprobe::compare_app
