// Guards file mappings against the file shrinking under them. Reading a mapped page past a file's
// new end raises SIGBUS, which would kill the process; another program truncating an input while we
// read it is a bad input, not a crash. While a mapping is guarded, a SIGBUS inside it replaces the
// rest of the mapping with zero pages and marks it truncated; the reader carries on over zeros and
// asks afterwards whether what it read was the file (MappedRegion::Intact). A SIGBUS anywhere else
// goes to the handler that was installed before ours, or ends the process as it would have.
#pragma once

#include <cstddef>

namespace msprobe::internal {

// Guards [base, base + length). Returns the guard to release before unmapping, or -1 when every
// slot is taken (the mapping then goes unguarded, as before guards existed).
int GuardMapping(void* base, size_t length);
// Whether a SIGBUS hit the guarded mapping. -1 (unguarded) is never truncated.
bool MappingTruncated(int guard);
void ReleaseMappingGuard(int guard);

}  // namespace msprobe::internal
