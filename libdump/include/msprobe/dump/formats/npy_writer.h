// Writes numpy .npy files byte-identical to numpy.save (numpy >= 1.23 header layout, C order), either
// streamed in chunks or in one call. The file appears under its final name only once complete
// (docs/formats.md §6.5).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/tensor/dtype.h"
#include "msprobe/dump/util/status.h"

namespace msprobe {

// Streams one array: Create() writes the header, Append() takes element bytes in C order and native
// byte order, Finish() checks that exactly numel elements arrived and renames the file into place.
// Without a successful Finish() nothing is left under the final name. Not thread-safe.
class NpyWriter {
 public:
  // Dtypes without a numpy descr (bfloat16, int4, float8 kinds, complex32) are Unsupported: convert
  // them first. A negative or overflowing shape is InvalidInput.
  static Result<NpyWriter> Create(const std::string& path, DType dtype, const std::vector<int64_t>& shape);

  // `elements` must hold whole elements, and no more than the shape has left.
  Status Append(Bytes elements);
  // Commits the file; fails (and removes the temporary file) unless exactly numel elements arrived.
  Status Finish();

  uint64_t numel() const { return numel_; }
  uint64_t appended() const { return appended_; }

 private:
  NpyWriter(AtomicFile file, DType dtype, std::vector<int64_t> shape, uint64_t numel)
      : file_(std::move(file)), dtype_(dtype), shape_(std::move(shape)), numel_(numel) {}

  std::optional<AtomicFile> file_;  // empty after Finish()
  DType dtype_;
  std::vector<int64_t> shape_;
  uint64_t numel_ = 0;
  uint64_t appended_ = 0;
};

// Writes a whole array at once: `elements` holds numel elements in C order, native byte order.
Status WriteNpy(const std::string& path, DType dtype, const std::vector<int64_t>& shape, Bytes elements);

}  // namespace msprobe
