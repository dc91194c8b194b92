// Writes one contiguous tensor as torch.save does (zip format, torch >= 1.6): members
// "<name>/data.pkl" (pickle protocol 2, torch._utils._rebuild_tensor_v2 over a persistent-id
// storage), "<name>/byteorder" ("little"), "<name>/data/0" (the raw little-endian storage, its bytes
// 64-byte aligned in the file as torch >= 1.13 aligns them) and "<name>/version" ("3\n"); every member
// stored, not deflated; <name> is the file name up to its last '.', as torch names the archive folder.
// The zip is written with minizip. The reader is pt_reader.h (docs/formats.md §6.1–6.4).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/dump/tensor/dtype.h"

namespace msprobe {

// Streams one tensor: Create() writes data.pkl and opens the storage member, Append() takes element
// bytes in C order and native (little-endian) byte order, Finish() checks that exactly numel elements
// arrived, writes the last member and renames the file into place. Without a successful Finish()
// nothing is left under the final name. Not thread-safe.
class PtWriter {
 public:
  // Dtypes without a torch storage class (uint16/32/64, int4, float8 kinds) are Unsupported: convert
  // them first. A negative or overflowing shape is InvalidInput.
  static Result<PtWriter> Create(const std::string& path, DType dtype, const std::vector<int64_t>& shape);
  PtWriter(PtWriter&& other) noexcept;
  PtWriter& operator=(PtWriter&&) = delete;
  PtWriter(const PtWriter&) = delete;
  ~PtWriter();  // removes the temporary file unless Finish() succeeded

  Status Append(Bytes elements);
  Status Finish();

  uint64_t numel() const { return numel_; }
  uint64_t appended() const { return appended_; }

 private:
  PtWriter(std::string path, std::string temp_path, void* zip, DType dtype, uint64_t numel, std::string folder,
           uint64_t offset)
      : path_(std::move(path)), temp_path_(std::move(temp_path)), zip_(zip), dtype_(dtype), numel_(numel),
        folder_(std::move(folder)), offset_(offset) {}
  std::string path_, temp_path_;
  void* zip_ = nullptr;  // minizip's zipFile; null once closed
  DType dtype_;
  uint64_t numel_ = 0;
  uint64_t appended_ = 0;
  std::string folder_;
  uint64_t offset_ = 0;  // file offset where the next member's local header starts
  int pending_slot_ = -1;  // removal on SIGINT/SIGTERM (pending_files_internal.h)
  bool committed_ = false;
};

// Writes a whole tensor at once: `elements` holds numel elements in C order, little-endian.
Status WritePt(const std::string& path, DType dtype, const std::vector<int64_t>& shape, Bytes elements);

// The data.pkl bytes torch.save writes for a contiguous tensor of `dtype` and `shape` whose storage
// is member data/0 (exposed for tests).
std::string TorchTensorPickle(DType dtype, const std::vector<int64_t>& shape);

}  // namespace msprobe
