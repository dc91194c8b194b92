// The temporary name an output is written under until it is complete: "<path>.tmp.<16 random hex
// digits>", created with O_EXCL | O_NOFOLLOW (never a file or link planted there) and registered for
// removal on SIGINT/SIGTERM (pending_files_internal.h). AtomicFile and PendingOutput make theirs here.
#pragma once

#include <string>

#include "msprobe/dump/util/status.h"

namespace msprobe::internal {

struct TemporaryFile {
  std::string path;
  int fd = -1;         // open with `open_flags`; the caller closes it
  int pending_slot = -1;  // to release (ReleasePendingFile) once renamed or removed
};

// Creates the temporary file beside `path`; errors name `path`.
Result<TemporaryFile> CreateTemporaryBeside(const std::string& path, int open_flags);

}  // namespace msprobe::internal
