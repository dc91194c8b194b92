// Streams a tensor's elements in logical (C) order, in native byte order, as contiguous windows of
// a bounded size: zero-copy mmap windows for contiguous native-order tensors, a gathered buffer
// otherwise (views, Fortran order, big-endian). Windows are independent, so they can be read in
// parallel.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "msprobe/dump/io/mapped_file.h"
#include "msprobe/dump/tensor/tensor.h"
#include "msprobe/dump/util/status.h"

namespace msprobe {

// Elements per Read for a reader walking a whole tensor. Each window of a contiguous tensor is a mapping
// of its own, and unmapping it flushes the TLB on every core the process runs on: with windows of 64 Ki
// elements that was a tenth of an --attribute run. Larger windows than 1 Mi only add to the resident set.
// A gathered window's buffer holds as many elements; even, as an int4 window must start on a byte.
inline constexpr uint64_t kReadWindowElements = uint64_t{1} << 20;

// Holds the bytes of one window: a mapping or a buffer. Reuse one per thread to avoid reallocations.
class ElementWindow {
 public:
  Bytes bytes() const { return bytes_; }
  // Whether the bytes came from the file: an error once it was truncated while they were read.
  // Ask after consuming them.
  Status Intact() const { return gathered_from_ ? gathered_from_->Intact() : region_.Intact(); }

 private:
  friend class TensorSource;
  MappedRegion region_;
  std::vector<std::byte> buffer_;
  const MappedRegion* gathered_from_ = nullptr;  // the storage a gathered window was copied from
  Bytes bytes_;
};

class TensorSource {
 public:
  // Opens info.path and checks the storage against the file size. The TensorInfo must have passed
  // ValidateExtent (readers do that).
  static Result<TensorSource> Open(const TensorInfo& info);
  // For a file that is already open (the .pt reader keeps its archive mapped).
  static Result<TensorSource> Open(const TensorInfo& info, std::shared_ptr<const MappedFile> file);

  const TensorInfo& info() const { return info_; }
  uint64_t numel() const { return numel_; }
  // Fills `out` with elements [first, first + count). REQUIRES: first + count <= numel(); for int4,
  // `first` is even.
  Status Read(uint64_t first, uint64_t count, ElementWindow* out) const;
  // Reads every element in order, kReadWindowElements at a time: visit(first, count, bytes) for each
  // window, whose bytes are then checked intact (an error once the file was truncated meanwhile).
  // Stops at the first error.
  template <class Visit>
  Status ForEachWindow(Visit&& visit) const {
    ElementWindow window;
    for (uint64_t first = 0; first < numel_; first += kReadWindowElements) {
      const uint64_t count = std::min(kReadWindowElements, numel_ - first);
      MSP_RETURN_IF_ERROR(Read(first, count, &window));
      visit(first, count, window.bytes());
      MSP_RETURN_IF_ERROR(window.Intact());
    }
    return Status::Ok();
  }

 private:
  TensorSource(TensorInfo info, std::shared_ptr<const MappedFile> file);
  Status Gather(uint64_t first, uint64_t count, ElementWindow* out) const;

  TensorInfo info_;
  std::shared_ptr<const MappedFile> file_;
  std::vector<int64_t> strides_;  // always filled
  uint64_t numel_ = 0;
  bool direct_ = false;           // contiguous, native order: windows map the file directly
  std::shared_ptr<const MappedRegion> storage_;  // whole storage, mapped lazily for gathers
};

}  // namespace msprobe
