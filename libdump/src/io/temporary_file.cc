#include "io/temporary_file_internal.h"

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "io/pending_files_internal.h"

namespace msprobe::internal {
namespace {

// 16 hex digits from the kernel's random source, so no one can plant a link at the name ahead of us.
// Safety does not rest on it (O_EXCL never opens what exists); without entropy the clock serves.
std::string RandomSuffix() {
  uint64_t bits = 0;
  if (::getrandom(&bits, sizeof bits, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof bits)) {
    bits = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  }
  return fmt::format("{:016x}", bits);
}

}  // namespace

Result<TemporaryFile> CreateTemporaryBeside(const std::string& path, int open_flags) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string temp = path + ".tmp." + RandomSuffix();
    const int fd = ::open(temp.c_str(), open_flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST) continue;
    if (fd < 0) return Status::IOError(path, std::string("cannot create: ") + std::strerror(errno));
    const int slot = RegisterPendingFile(temp.c_str());
    return TemporaryFile{std::move(temp), fd, slot};
  }
  return Status::IOError(path, "cannot create a temporary file beside it: every name tried exists");
}

}  // namespace msprobe::internal
