#include "jobs/output_paths_internal.h"

#include <filesystem>

#include "msprobe/dump/framework/output_location.h"
#include "msprobe/dump/io/output_folder.h"

namespace msprobe::compare::internal {

namespace fs = std::filesystem;

Status PrepareRunOutputs(const CompareOptions& options, const std::vector<std::string>& inputs) {
  MSP_RETURN_IF_ERROR(CheckOutputOutsideInputs(options.output_dir, /*is_dir=*/true, inputs));
  if (!options.junit_path.empty()) MSP_RETURN_IF_ERROR(CheckOutputOutsideInputs(options.junit_path, false, inputs));
  MSP_RETURN_IF_ERROR(MakeOutputFolder(options.output_dir, options.output_dir, "-o"));
  if (options.junit_path.empty()) return Status::Ok();
  const fs::path junit(options.junit_path);
  std::error_code ec;
  if (fs::is_directory(junit, ec)) {
    return Status::InvalidInput(options.junit_path, "a folder, not a file: give --junit a file name such as junit.xml");
  }
  const fs::path parent = junit.parent_path();
  return MakeOutputFolder(parent.empty() ? "." : parent.string(), options.junit_path, "--junit");
}

}  // namespace msprobe::compare::internal
