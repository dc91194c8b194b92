// Tier T1, "delegate mode" (MSPROBE_CAPTURE_DELEGATE=1, docs/capture.md A8.1): the runtime dumps every op
// itself (aclmdlInitDump + aclmdlSetDump with a generated acl.json + acldumpRegCallback); the shim's
// callback streams each file's chunks straight into {device dir}/{name}.tmp and renames it on the last
// chunk. The shim owns the runtime dump session: the program's own aclmdlInitDump/SetDump/FinalizeDump
// calls are acknowledged without being forwarded, and a callback the program registers is chained
// (it receives every chunk too).
#pragma once

#include "acl_types.h"
#include "capture_state.h"

namespace msprobe::capture {

// Opens the runtime dump session once (first aclrtSetDevice with capture active).
void StartDelegate(CaptureState& state) noexcept;
// Closes it (before aclFinalize is forwarded).
void FinishDelegate(CaptureState& state) noexcept;
// True when the program's dump calls must not reach the runtime.
bool DelegateOwnsDump(const CaptureState& state) noexcept;
// Remembers the program's callback for chaining.
void ChainProgramCallback(acldumpCallback callback) noexcept;

}  // namespace msprobe::capture
