// Fuzzes StreamJsonObject, the dump.json streamer that walks the top-level object's punctuation by
// hand and parses one entry at a time. The input goes through a memfd, since it reads files.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "msprobe/dump/formats/json_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int fd = memfd_create("dump.json", MFD_CLOEXEC);
  if (fd < 0) return 0;
  if (size == 0 || write(fd, data, size) == static_cast<ssize_t>(size)) {
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    const auto keep = [](std::string_view, const msprobe::JsonValue&) { return msprobe::Status::Ok(); };
    (void)msprobe::StreamJsonObject(path, "data", keep, keep);
  }
  close(fd);
  return 0;
}
