// Temporary output files that a SIGINT or SIGTERM must not leave behind. AtomicFile registers each
// temporary name while it exists; on either signal the handler removes every registered file, then
// lets the signal end the process as it would have. The handler is installed on first use, and only
// for a signal whose disposition is still the default, so a program's own handling is left alone.
#pragma once

namespace msprobe::internal {

// Registers `path` (copied) for removal on SIGINT/SIGTERM. Returns the slot to release, or -1 when
// the path is too long or every slot is taken (the file is then only removed by its owner).
int RegisterPendingFile(const char* path);
// Forgets a slot once its file is renamed into place or removed. -1 is ignored.
void ReleasePendingFile(int slot);

}  // namespace msprobe::internal
