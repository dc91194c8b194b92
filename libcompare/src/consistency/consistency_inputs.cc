#include "consistency/consistency_inputs_internal.h"

#include <filesystem>

#include "msprobe/dump/text/python_parse.h"

namespace msprobe::compare::internal {
namespace {

namespace fs = std::filesystem;

constexpr const char* kWhatToGive = "give a step folder (rank*/dump.json) or a dump root (step*/rank*/dump.json)";

int64_t StepNumber(const fs::path& dir) {
  const std::string name = fs::absolute(dir).lexically_normal().filename().string();
  if (!name.starts_with("step")) return 0;
  return PythonInt(std::string_view(name).substr(4)).value_or(0);
}

}  // namespace

Result<std::vector<ConsistencyStep>> FindConsistencySteps(const std::string& input, const Warn& warn,
                                                          std::vector<std::string>* without_dump_json) {
  std::error_code ec;
  if (!fs::exists(input, ec)) return Status::NotFound(input, "no such directory");
  if (!fs::is_directory(input, ec)) return Status::InvalidInput(input, std::string("a file, not a directory: ") + kWhatToGive);
  if (fs::exists(fs::path(input) / "dump.json", ec)) {
    return Status::InvalidInput(input, "one rank's dump: the check compares ranks; give the step folder above it");
  }
  std::vector<ConsistencyStep> steps;
  MSP_ASSIGN_OR_RETURN(DumpRootScan scan, ScanDumpRoot(input, warn));
  *without_dump_json = std::move(scan.ranks_without_dump_json);
  for (const TrendStepDir& step : scan.steps) steps.push_back({step.step, step.ranks});
  if (steps.empty() && !scan.any_step_dir) {
    MSP_ASSIGN_OR_RETURN(std::vector<TrendRankDir> ranks, ScanStepDir(input, warn, without_dump_json));
    if (!ranks.empty()) steps.push_back({StepNumber(input), std::move(ranks)});
  }
  if (steps.empty()) {
    return Status::NotFound(input, std::string("no rank*/dump.json below it: ") + kWhatToGive);
  }
  for (const ConsistencyStep& step : steps) {
    if (step.ranks.size() >= 2) return steps;
  }
  return Status::InvalidInput(input, "one rank in every step: the check compares ranks, and there is nothing to "
                                     "compare it with");
}

}  // namespace msprobe::compare::internal
