// Capture of calls larger than the memory budget, in pieces.
#include "chunked_capture.h"

#include <algorithm>
#include <new>

#include "real_acl.h"

namespace msprobe::capture {
namespace {

// Large enough that a copy costs far more than the wait after it. A piece takes at most a quarter of
// the budget, leaving the rest to the ordinary calls in flight, so neither starves the other.
constexpr uint64_t kMaxPiece = 64ull << 20;
constexpr uint64_t kBudgetShare = 4;

// Copies the slots of one kind piece by piece through the record's buffer and appends them to its file.
const char* StreamSlots(CaptureState& state, CaptureRecord* r, bool inputs, const aclDataBuffer* const* buffers,
                        aclrtStream stream) {
  const RealAcl& acl = Real();
  ChunkedFile& f = *r->chunked;
  for (const CapturedSlot& s : r->slots) {
    if (s.is_input != inputs || s.size == 0) continue;
    const auto* src = static_cast<const char*>(acl.buffer_addr(buffers[s.index]));
    for (uint64_t offset = 0; offset < s.size; offset += f.buffer_size) {
      const uint64_t n = std::min(f.buffer_size, s.size - offset);
      // With room to spare, the piece lands where its address matches its file offset (O_DIRECT).
      char* dst = f.buffer_alloc > f.buffer_size ? DumpWriter::PlaceForDirect(f.buffer, f.out.offset)
                                                 : static_cast<char*>(f.buffer);
      if (acl.memcpy_async(dst, n, src + offset, n, ACL_MEMCPY_DEVICE_TO_HOST, stream) != ACL_SUCCESS ||
          acl.synchronize_stream(stream) != ACL_SUCCESS) {
        return "device-to-host copy failed";
      }
      ++f.pieces;
      if (!state.writer().AppendTensor(&f.out, dst, n)) {
        state.Stop("writing an output file failed");
        return "write failed";
      }
    }
  }
  return nullptr;
}

// Ends the record: the file is kept only when nothing failed; the writer logs it and frees the piece.
void Finish(CaptureState& state, CaptureRecord* r, const char* reason) {
  DumpWriter& writer = state.writer();
  ChunkedFile& f = *r->chunked;
  if (f.out.fd >= 0) {
    const char* close_reason = writer.CloseTensorFile(&f.out, f.final_path, reason == nullptr);
    if (!reason) reason = close_reason;
  }
  r->failure = reason;
  writer.Push(r);
}

}  // namespace

bool BeginChunkedCapture(CaptureState& state, CaptureRecord* r, const aclDataBuffer* const* inputs,
                         aclrtStream stream) noexcept {
  DumpWriter& writer = state.writer();
  try {
    r->chunked = std::make_unique<ChunkedFile>();
  } catch (...) {
    r->failure = "out of memory";
    writer.Push(r);
    return false;
  }
  ChunkedFile& f = *r->chunked;
  for (const CapturedSlot& s : r->slots) f.buffer_size = std::max(f.buffer_size, s.size);
  const uint64_t share = std::max<uint64_t>(state.config().memory_budget / kBudgetShare, 1);
  f.buffer_size = std::min({f.buffer_size, share, kMaxPiece});
  // Pieces large enough for O_DIRECT get room to be placed at their file offset's alignment.
  f.buffer_alloc = f.buffer_size + (writer.DirectWanted(f.buffer_size) ? DumpWriter::kDirectAlign : 0);
  // The call is synchronous from here on anyway: wait for the writer to free a piece's worth, whatever
  // the ON_FULL policy (a piece always fits once the calls before it are written).
  if (!writer.Reserve(f.buffer_alloc, true)) {
    r->failure = "memory budget (MSPROBE_CAPTURE_MEMORY) exhausted";
    writer.Push(r);
    return false;
  }
  r->reserved_bytes = f.buffer_alloc;  // released by the writer with the buffer
  if ((f.buffer = writer.TakeHostBuffer(f.buffer_alloc)) == nullptr) {
    r->failure = "aclrtMallocHost failed";
    writer.Push(r);
    return false;
  }
  const char* reason = nullptr;
  try {
    writer.OpenTensorFile(*r, &f.out, &f.final_path, &f.file, &f.bytes, &reason);
  } catch (...) {
    reason = "out of memory";
  }
  if (!reason) reason = StreamSlots(state, r, true, inputs, stream);
  if (!reason) return true;
  Finish(state, r, reason);
  return false;
}

void EndChunkedCapture(CaptureState& state, CaptureRecord* r, aclError op_result,
                       const aclDataBuffer* const* outputs, aclrtStream stream) noexcept {
  const char* reason = op_result != ACL_SUCCESS ? "the op returned an error"
                                                : StreamSlots(state, r, false, outputs, stream);
  Finish(state, r, reason);
}

}  // namespace msprobe::capture
