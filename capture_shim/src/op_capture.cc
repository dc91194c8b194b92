// Stream-ordered capture of single-op calls.
#include "op_capture.h"

#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "chunked_capture.h"
#include "real_acl.h"

namespace msprobe::capture {
namespace {

uint64_t NowMicros() {
  timeval tv{};
  gettimeofday(&tv, nullptr);
  return static_cast<uint64_t>(tv.tv_sec) * 1000000u + static_cast<uint64_t>(tv.tv_usec);
}

CapturedSlot DescribeSlot(bool is_input, uint32_t index, const aclTensorDesc* desc, const aclDataBuffer* buffer) {
  const RealAcl& acl = Real();
  CapturedSlot s;
  s.is_input = is_input;
  s.index = index;
  s.acl_dtype = acl.desc_type(desc);
  s.acl_format = acl.desc_format(desc);
  const size_t rank = acl.desc_num_dims(desc);
  for (size_t i = 0; i < rank; ++i) {
    int64_t d = 0;
    if (acl.desc_dim(desc, i, &d) != ACL_SUCCESS) d = 0;
    s.dims.push_back(d);
  }
  const size_t want = acl.desc_size(desc);
  const size_t have = buffer && acl.buffer_addr(buffer) ? acl.buffer_size(buffer) : 0;
  s.size = want < have ? want : have;
  return s;
}

bool HaveAccessors() {
  const RealAcl& a = Real();
  return a.desc_type && a.desc_format && a.desc_size && a.desc_num_dims && a.desc_dim && a.buffer_addr &&
         a.buffer_size && a.malloc_host && a.free_host && a.memcpy_async && a.launch_host_func && a.synchronize_stream;
}

// Enqueues device→host copies of the slots of one kind; a failure marks the record.
void EnqueueCopies(CaptureRecord* r, bool inputs, const aclDataBuffer* const* buffers, aclrtStream stream) {
  for (CapturedSlot& s : r->slots) {
    if (s.is_input != inputs || s.size == 0) continue;
    const void* src = Real().buffer_addr(buffers[s.index]);
    if (Real().memcpy_async(s.host, s.size, src, s.size, ACL_MEMCPY_DEVICE_TO_HOST, stream) != ACL_SUCCESS) {
      r->failure = "device-to-host copy failed";
    }
  }
}

// Runs on the runtime's callback thread once the copies before it on the stream are done: only hands
// the record over (the runtime forbids syncs and allocations here).
void OnCopiesDone(void* arg) noexcept {
  auto* r = static_cast<CaptureRecord*>(arg);
  r->stream->pending_host_funcs.fetch_sub(1);
  if (CaptureState* s = CaptureState::Get()) s->writer().Push(r);
}

// Tensor mode with slots large enough for O_DIRECT: the hook encodes the file's header now, so that
// each such slot's host copy can be placed at an address congruent to its file offset (its buffer is
// kDirectAlign bytes larger: alloc_size). Returns the extra bytes to charge; 0 leaves every slot as is.
uint64_t PlanDirectSlots(DumpWriter& writer, const Config& c, CaptureRecord* r, uint64_t bytes) noexcept {
  if (c.mode != CaptureMode::kTensor) return 0;
  uint64_t slack = 0;
  for (CapturedSlot& s : r->slots) {
    if (!writer.DirectWanted(s.size)) continue;
    s.alloc_size = s.size + DumpWriter::kDirectAlign;
    slack += DumpWriter::kDirectAlign;
  }
  if (slack > 0 && bytes + slack <= c.memory_budget) {
    try {
      uint64_t data_bytes = 0;
      r->prefix = DumpWriter::EncodePrefix(*r, &data_bytes);
      return slack;
    } catch (...) {
      // the writer encodes the header later; the copies are written buffered
    }
  }
  for (CapturedSlot& s : r->slots) s.alloc_size = 0;
  return 0;
}

}  // namespace

CaptureRecord* BeginOpCapture(CaptureState& state, const char* op_type, int num_inputs,
                              const aclTensorDesc* const* input_desc, const aclDataBuffer* const* inputs,
                              int num_outputs, const aclTensorDesc* const* output_desc,
                              const aclDataBuffer* const* outputs, aclrtStream stream) noexcept {
  if (op_type == nullptr || num_inputs < 0 || num_outputs < 0) return nullptr;
  if (!HaveAccessors()) {
    state.Stop("the runtime lacks a function the shim needs (aclGetTensorDesc*, aclrtMemcpyAsync, …)");
    return nullptr;
  }
  StreamInfo* stream_info = state.Stream(stream);
  if (stream_info == nullptr) return nullptr;
  const uint64_t task_id = stream_info->next_task.fetch_add(1);
  const uint64_t seq = state.NextSeq();
  if (!state.Selected(op_type, seq)) return nullptr;

  CaptureRecord* r = nullptr;
  try {
    r = new CaptureRecord();
    r->seq = seq;
    r->op_type = op_type;
    r->stream = stream_info;
    r->task_id = task_id;
    r->device = state.Device();
    r->rank = state.Rank();
    r->time_us = NowMicros();
    r->tid = static_cast<long>(::syscall(SYS_gettid));
    const Config& c = state.config();
    if (c.inputs && input_desc && inputs) {
      for (int i = 0; i < num_inputs; ++i) r->slots.push_back(DescribeSlot(true, i, input_desc[i], inputs[i]));
    }
    if (c.outputs && output_desc && outputs) {
      for (int i = 0; i < num_outputs; ++i) r->slots.push_back(DescribeSlot(false, i, output_desc[i], outputs[i]));
    }
  } catch (...) {
    delete r;
    state.Stop("out of memory while describing an op");
    return nullptr;
  }

  uint64_t bytes = 0;
  for (const CapturedSlot& s : r->slots) bytes += s.size;
  DumpWriter& writer = state.writer();
  writer.Track();
  const Config& c = state.config();
  if (bytes > c.memory_budget && c.chunk_large && c.mode == CaptureMode::kTensor) {
    return BeginChunkedCapture(state, r, inputs, stream) ? r : nullptr;
  }
  const uint64_t slack = PlanDirectSlots(writer, c, r, bytes);
  if (!writer.Reserve(bytes + slack, c.block_when_full)) {
    r->failure = "memory budget (MSPROBE_CAPTURE_MEMORY) exhausted";
    writer.Push(r);
    return nullptr;
  }
  r->reserved_bytes = bytes + slack;
  uint64_t file_offset = r->prefix.size();
  for (CapturedSlot& s : r->slots) {
    const bool placed = s.alloc_size > s.size;
    if (!placed) s.alloc_size = s.size;
    if (s.size && (s.alloc = writer.TakeHostBuffer(s.alloc_size)) == nullptr) r->failure = "aclrtMallocHost failed";
    if (s.alloc) s.host = placed ? DumpWriter::PlaceForDirect(s.alloc, file_offset) : s.alloc;
    file_offset += s.size;
  }
  if (r->failure) {
    writer.Push(r);
    return nullptr;
  }
  EnqueueCopies(r, true, inputs, stream);
  return r;
}

void EndOpCapture(CaptureState& state, CaptureRecord* r, aclError op_result, const aclDataBuffer* const* outputs,
                  aclrtStream stream) noexcept {
  if (r->chunked) {
    EndChunkedCapture(state, r, op_result, outputs, stream);
    return;
  }
  if (op_result != ACL_SUCCESS) {
    r->failure = "the op returned an error";
  } else {
    EnqueueCopies(r, false, outputs, stream);
  }
  r->stream->pending_host_funcs.fetch_add(1);
  if (Real().launch_host_func(stream, OnCopiesDone, r) != ACL_SUCCESS) {
    // Cannot learn when the copies land: wait for the stream (perturbs timing; rare).
    r->stream->pending_host_funcs.fetch_sub(1);
    Real().synchronize_stream(stream);
    state.writer().Push(r);
  }
}

}  // namespace msprobe::capture
