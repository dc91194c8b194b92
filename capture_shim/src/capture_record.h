// What one intercepted op leaves for the writer thread: the host copies of its input and output
// tensors (filled in stream order by the runtime) and what the .bin header and manifest need.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace msprobe::capture {

// A stream the shim has seen: a small stable id (0 = the default stream, then creation order) and a
// per-stream task counter, as CANN numbers them in file names (docs/capture.md A8.7 item 8).
struct StreamInfo {
  uint32_t id = 0;
  std::atomic<uint64_t> next_task{0};
  std::atomic<int64_t> pending_host_funcs{0};  // launched, not yet run by the runtime
};

struct CapturedSlot {
  bool is_input = true;
  uint32_t index = 0;
  int32_t acl_dtype = 0;
  int32_t acl_format = 0;
  std::vector<int64_t> dims;
  uint64_t size = 0;
  void* host = nullptr;   // size bytes of host memory (inside `alloc`); null when size == 0
  void* alloc = nullptr;  // the aclrtMallocHost buffer holding `host`, of alloc_size bytes
  uint64_t alloc_size = 0;
};

// A .bin file being written (DumpWriter::OpenTensorFile / AppendTensor / CloseTensorFile): the buffered
// fd, and a second fd opened with O_DIRECT on the same file when a large write first wants it.
struct TensorFile {
  int fd = -1;
  int direct_fd = -1;
  bool direct_tried = false;  // direct_fd was opened (or refused) already
  uint64_t offset = 0;        // bytes written so far: the next write's file offset
  uint64_t direct_bytes = 0;  // of which through O_DIRECT
  std::string tmp_path;
};

// A call larger than the memory budget, written from the hook piece by piece (chunked_capture.h).
struct ChunkedFile {
  TensorFile out;            // name.tmp, open until the outputs are written
  std::string final_path;    // {device dir}/{name}
  std::string file;          // as the manifest names it: {device}/{name}
  uint64_t bytes = 0;        // the whole file
  void* buffer = nullptr;    // one piece of host memory (buffer_alloc bytes), charged against the budget
  uint64_t buffer_size = 0;  // the largest piece
  uint64_t buffer_alloc = 0; // buffer_size, plus 4096 when pieces are placed for O_DIRECT
  uint64_t pieces = 0;       // device-to-host copies made
};

struct CaptureRecord {
  CaptureRecord* next = nullptr;  // intrusive queue link: pushing from the runtime's thread allocates nothing
  uint64_t seq = 0;               // op call index in this process
  std::string op_type;
  StreamInfo* stream = nullptr;
  uint64_t task_id = 0;
  int32_t device = 0;
  uint32_t rank = 0;
  uint64_t time_us = 0;
  long tid = 0;
  std::vector<CapturedSlot> slots;  // inputs first, then outputs
  uint64_t reserved_bytes = 0;      // charged against the memory budget
  const char* failure = nullptr;    // set when the op or a copy failed: nothing is written
  std::unique_ptr<ChunkedFile> chunked;  // set when the file was written from the hook in pieces
  std::string prefix;  // length + header when the hook placed slots for O_DIRECT (else the writer encodes)
};

}  // namespace msprobe::capture
