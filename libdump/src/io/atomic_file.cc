#include "msprobe/dump/io/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <utility>

#include "io/pending_files_internal.h"
#include "io/temporary_file_internal.h"

namespace msprobe {
namespace {

constexpr size_t kAlignment = 4096;

// The file's status flags with O_DIRECT set or cleared; false when the file system refuses.
bool SetDirect(int fd, bool on) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) return false;
  return ::fcntl(fd, F_SETFL, on ? (flags | O_DIRECT) : (flags & ~O_DIRECT)) == 0;
}

}  // namespace

void AtomicFile::FreeBuffer::operator()(char* p) const { std::free(p); }

Result<AtomicFile> AtomicFile::Create(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(internal::TemporaryFile temp, internal::CreateTemporaryBeside(path, O_WRONLY));
  return AtomicFile(path, std::move(temp.path), temp.fd, temp.pending_slot);
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept : written_(other.WaitForWrite()) {  // its writer uses `other`
  path_ = std::move(other.path_);
  temp_path_ = std::move(other.temp_path_);
  fd_ = std::exchange(other.fd_, -1);
  pending_slot_ = std::exchange(other.pending_slot_, -1);
  buffer_ = std::move(other.buffer_);
  flushing_ = std::move(other.flushing_);
  used_ = other.used_;
  direct_tried_ = other.direct_tried_;
  direct_ = other.direct_;
  committed_ = other.committed_;
}

AtomicFile::~AtomicFile() {
  (void)WaitForWrite();
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) std::remove(temp_path_.c_str());
  internal::ReleasePendingFile(pending_slot_);
}

Status AtomicFile::WriteAll(const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EINVAL && direct_) {
      // Some file systems accept the flag and refuse the write: go on without it.
      direct_ = false;
      if (!SetDirect(fd_, false)) return Status::IOError(path_, std::string("write failed: ") + std::strerror(EINVAL));
      continue;
    }
    if (n <= 0) return Status::IOError(path_, std::string("write failed: ") + std::strerror(n < 0 ? errno : EIO));
    data += n;
    size -= static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status AtomicFile::WaitForWrite() {
  if (writer_.joinable()) writer_.join();
  return written_;
}

Status AtomicFile::FlushFullBuffer() {
  MSP_RETURN_IF_ERROR(WaitForWrite());
  // Only whole buffers come here, so the file offset stays a multiple of the alignment.
  if (!direct_tried_) {
    direct_tried_ = true;
    direct_ = SetDirect(fd_, true);
  }
  std::swap(buffer_, flushing_);
  if (!buffer_) {
    buffer_.reset(static_cast<char*>(std::aligned_alloc(kAlignment, kBufferBytes)));
    if (!buffer_) return Status::IOError(path_, "cannot allocate the write buffer");
  }
  const size_t size = std::exchange(used_, 0);
  try {
    writer_ = std::thread([this, size] { written_ = WriteAll(flushing_.get(), size); });
  } catch (const std::system_error&) {  // no thread to be had: write it here
    written_ = WriteAll(flushing_.get(), size);
  }
  return Status::Ok();
}

Status AtomicFile::Write(Bytes data) {
  if (fd_ < 0) return Status::Internal(path_, "write after commit");
  if (!buffer_ && !data.empty()) {
    buffer_.reset(static_cast<char*>(std::aligned_alloc(kAlignment, kBufferBytes)));
    if (!buffer_) return Status::IOError(path_, "cannot allocate the write buffer");
  }
  const char* p = reinterpret_cast<const char*>(data.data());
  size_t left = data.size();
  while (left > 0) {
    const size_t take = std::min(left, kBufferBytes - used_);
    std::memcpy(buffer_.get() + used_, p, take);
    used_ += take;
    p += take;
    left -= take;
    if (used_ == kBufferBytes) MSP_RETURN_IF_ERROR(FlushFullBuffer());
  }
  return Status::Ok();
}

Status AtomicFile::Commit() {
  if (fd_ < 0) return Status::Internal(path_, "commit twice");
  MSP_RETURN_IF_ERROR(WaitForWrite());
  flushing_.reset();
  // The tail is not a whole number of blocks: write it through the page cache.
  Status written = (direct_ && !SetDirect(fd_, false))
                       ? Status::IOError(path_, std::string("cannot leave O_DIRECT: ") + std::strerror(errno))
                       : Status::Ok();
  direct_ = false;
  if (written.ok() && used_ > 0) written = WriteAll(buffer_.get(), used_);
  used_ = 0;
  buffer_.reset();
  // No fsync: the rename already publishes only complete files if the process dies. Surviving a power
  // cut is not promised, and forcing writeback of a half-GB result would cost seconds.
  const bool closed = ::close(std::exchange(fd_, -1)) == 0;
  if (!written.ok()) return written;
  if (!closed) return Status::IOError(path_, std::string("write failed: ") + std::strerror(errno));
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    return Status::IOError(path_, std::string("cannot rename into place: ") + std::strerror(errno));
  }
  committed_ = true;
  internal::ReleasePendingFile(std::exchange(pending_slot_, -1));
  return Status::Ok();
}

Status WriteFileAtomically(const std::string& path, std::string_view data) {
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  MSP_RETURN_IF_ERROR(file.Write(data));
  return file.Commit();
}

}  // namespace msprobe
