#include "jobs/output_paths_internal.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "msprobe/dump/framework/output_location.h"

namespace msprobe::compare::internal {
namespace {

namespace fs = std::filesystem;

// `dir` and its missing parents made, and writable; `flag` names the option the user gave it with.
Status MakeWritableDir(const fs::path& dir, const std::string& shown, const char* flag) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return Status::IOError(shown, fmt::format("cannot create the folder {} ({}): choose another {}", dir.string(),
                                              ec.message(), flag));
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    return Status::IOError(shown, fmt::format("the folder {} is not writable: choose another {}", dir.string(), flag));
  }
  return Status::Ok();
}

}  // namespace

Status PrepareRunOutputs(const CompareOptions& options, const std::vector<std::string>& inputs) {
  MSP_RETURN_IF_ERROR(CheckOutputOutsideInputs(options.output_dir, /*is_dir=*/true, inputs));
  if (!options.junit_path.empty()) MSP_RETURN_IF_ERROR(CheckOutputOutsideInputs(options.junit_path, false, inputs));
  MSP_RETURN_IF_ERROR(MakeWritableDir(options.output_dir, options.output_dir, "-o"));
  if (options.junit_path.empty()) return Status::Ok();
  const fs::path junit(options.junit_path);
  std::error_code ec;
  if (fs::is_directory(junit, ec)) {
    return Status::InvalidInput(options.junit_path, "a folder, not a file: give --junit a file name such as junit.xml");
  }
  const fs::path parent = junit.parent_path();
  return MakeWritableDir(parent.empty() ? fs::path(".") : parent, options.junit_path, "--junit");
}

}  // namespace msprobe::compare::internal
