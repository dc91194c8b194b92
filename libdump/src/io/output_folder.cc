#include "msprobe/dump/io/output_folder.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <system_error>

namespace msprobe {

Status MakeOutputFolder(const std::string& dir, const std::string& shown, std::string_view flag) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return Status::IOError(shown, fmt::format("cannot create the folder {} ({}): choose another {}", dir, ec.message(),
                                              flag));
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    return Status::IOError(shown, fmt::format("the folder {} is not writable: choose another {}", dir, flag));
  }
  return Status::Ok();
}

}  // namespace msprobe
