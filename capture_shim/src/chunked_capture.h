// A call whose slots together exceed MSPROBE_CAPTURE_MEMORY (tensor mode, MSPROBE_CAPTURE_LARGE=chunk):
// its .bin file is written from the hook, one piece at a time — copy a piece on the op's stream, wait
// for the stream, append it to name.tmp — so host memory stays within one budget-sized piece
// (docs/capture.md A8.5: stream to disk, never hold a whole file). Waiting for the stream is a timing
// change, as in the host-function fallback; device memory is still never read after the hook returns.
#pragma once

#include "acl_types.h"
#include "capture_record.h"
#include "capture_state.h"

namespace msprobe::capture {

// Opens the file and writes the header and the inputs (before the op runs). True when `r` goes on to
// EndChunkedCapture; false when it was dropped (and handed to the writer for its manifest line).
// REQUIRES: r was Track()ed, no budget is reserved for it, and no slot has a host buffer.
bool BeginChunkedCapture(CaptureState& state, CaptureRecord* r, const aclDataBuffer* const* inputs,
                         aclrtStream stream) noexcept;

// Writes the outputs (after the op), renames the file and hands `r` to the writer for its manifest line.
void EndChunkedCapture(CaptureState& state, CaptureRecord* r, aclError op_result,
                       const aclDataBuffer* const* outputs, aclrtStream stream) noexcept;

}  // namespace msprobe::capture
