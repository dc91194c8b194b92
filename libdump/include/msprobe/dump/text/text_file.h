// A small text file the way Python's open(path, encoding="utf-8").read() takes it: a regular file
// (a FIFO or device is refused without blocking), strictly UTF-8 (utf8.h). For the YAML configs and
// mappings users hand us, so bytes PyYAML would refuse never reach an output.
#pragma once

#include <string>

#include "msprobe/dump/util/status.h"

namespace msprobe {

// The whole file. Errors name the file: missing, not a regular file, unreadable, or invalid UTF-8 at
// a byte offset.
Result<std::string> ReadUtf8TextFile(const std::string& path);

}  // namespace msprobe
