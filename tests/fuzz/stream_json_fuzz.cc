// Fuzzes the streaming dump.json reader (StreamDumpJson) from a file, as verify and compare use it:
// it walks the top-level object's punctuation by hand and parses one entry at a time, inline
// (ReadDumpJson) or batches ahead on a second core (FlattenDump). The input goes through a memfd,
// since they read files.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "msprobe/compare/rows/flatten.h"
#include "msprobe/dump/framework/dump_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int fd = memfd_create("dump.json", MFD_CLOEXEC);
  if (fd < 0) return 0;
  if (size == 0 || write(fd, data, size) == static_cast<ssize_t>(size)) {
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    (void)msprobe::ReadDumpJson(path);
    (void)msprobe::compare::FlattenDump(path, "");
  }
  close(fd);
  return 0;
}
