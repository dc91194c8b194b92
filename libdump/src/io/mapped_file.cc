#include "msprobe/dump/io/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include "io/mapping_guard_internal.h"

namespace msprobe {

void MappedRegion::Unmap() {
  internal::ReleaseMappingGuard(std::exchange(guard_, -1));
  if (base_) munmap(std::exchange(base_, nullptr), length_);
}

MappedRegion& MappedRegion::operator=(MappedRegion&& other) noexcept {
  if (this != &other) {
    Unmap();
    base_ = std::exchange(other.base_, nullptr);
    length_ = std::exchange(other.length_, 0);
    bytes_ = std::exchange(other.bytes_, Bytes{});
    guard_ = std::exchange(other.guard_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

Status MappedRegion::Intact() const {
  if (!internal::MappingTruncated(guard_)) return Status::Ok();
  return Status::IOError(path_, "the file was truncated while it was being read");
}

void MappedRegion::DiscardPrefix(size_t bytes) {
  static const size_t kPage = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t prefix = static_cast<size_t>(bytes_.data() - static_cast<const std::byte*>(base_)) + bytes;
  const size_t pages = std::min(prefix, length_) / kPage * kPage;
  if (pages > 0) madvise(base_, pages, MADV_DONTNEED);  // advisory: a failure only costs memory
}

MappedRegion::~MappedRegion() { Unmap(); }

Result<std::shared_ptr<MappedFile>> MappedFile::Open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever; it is refused
  // below like any file that is not regular. On a regular file the flag changes nothing.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT) return Status::NotFound(path, "no such file");
    if (err == ELOOP) return Status::InvalidInput(path, "too many levels of symbolic links");
    return Status::IOError(path, std::strerror(err));
  }
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return Status::IOError(path, std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::InvalidInput(path, S_ISDIR(st.st_mode) ? "is a directory, expected a file" : "not a regular file");
  }
  return std::shared_ptr<MappedFile>(new MappedFile(path, fd, static_cast<uint64_t>(st.st_size)));
}

MappedFile::~MappedFile() {
  if (fd_ >= 0) ::close(fd_);
}

Result<MappedRegion> MappedFile::Map(uint64_t offset, uint64_t length, bool populate) const {
  if (offset > size_ || length > size_ - offset) {
    return Status::InvalidInput(path_, "range of " + std::to_string(length) + " bytes at offset " +
                                           std::to_string(offset) + " is past the end of the file (" +
                                           std::to_string(size_) + " bytes)");
  }
  MappedRegion region;
  if (length == 0) return region;
  static const uint64_t kPage = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t start = offset / kPage * kPage;
  const size_t span = static_cast<size_t>(offset - start + length);
  void* base = mmap(nullptr, span, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd_,
                    static_cast<off_t>(start));
  if (base == MAP_FAILED) {
    // No address space left is the same failure as an allocation that fails: it ends as "out of
    // memory" (exit 4), not as a bad input file.
    if (errno == ENOMEM) throw std::bad_alloc();
    return Status::IOError(path_, std::string("mmap failed: ") + std::strerror(errno));
  }
  region.base_ = base;
  region.length_ = span;
  region.guard_ = internal::GuardMapping(base, span);
  region.path_ = path_;
  region.bytes_ = Bytes(static_cast<const std::byte*>(base) + (offset - start), length);
  return region;
}

}  // namespace msprobe
