// Read-only access to one file through mmap windows, so a reader never copies a tensor whole and a
// caller can bound how much of a huge file is mapped at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/util/status.h"

namespace msprobe {

// A mapped byte range; unmapped on destruction. Movable, not copyable. Guarded against the file
// shrinking while it is read: the bytes past the new end read as zeros instead of raising SIGBUS,
// and Intact() tells the reader afterwards.
class MappedRegion {
 public:
  MappedRegion() = default;
  MappedRegion(MappedRegion&& other) noexcept { *this = std::move(other); }
  MappedRegion& operator=(MappedRegion&& other) noexcept;
  MappedRegion(const MappedRegion&) = delete;
  MappedRegion& operator=(const MappedRegion&) = delete;
  ~MappedRegion();
  Bytes bytes() const { return bytes_; }
  // Tells the kernel the first `bytes` of the region will not be read again, so a sequential reader
  // of a huge file keeps its resident set small. Whole pages only; later reads still work.
  void DiscardPrefix(size_t bytes);
  // Ok while every byte read so far came from the file; an error naming it once the file was
  // truncated under the mapping. Readers ask after consuming the bytes.
  Status Intact() const;

 private:
  friend class MappedFile;
  void Unmap();
  void* base_ = nullptr;  // page-aligned start of the mapping
  size_t length_ = 0;
  Bytes bytes_;
  int guard_ = -1;
  std::string path_;  // for Intact()'s error
};

class MappedFile {
 public:
  // Opens `path` read-only. Directories, missing files and unreadable files are errors naming the path.
  static Result<std::shared_ptr<MappedFile>> Open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }
  // Maps [offset, offset + length). `populate` pre-faults the pages (for ranges about to be scanned).
  // Throws std::bad_alloc when the address space is exhausted (ENOMEM), like any allocation.
  Result<MappedRegion> Map(uint64_t offset, uint64_t length, bool populate = false) const;
  // The whole file; for headers and small files.
  Result<MappedRegion> MapAll() const { return Map(0, size_); }

 private:
  MappedFile(std::string path, int fd, uint64_t size) : path_(std::move(path)), fd_(fd), size_(size) {}
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace msprobe
