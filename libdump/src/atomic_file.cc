#include "msprobe/dump/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace msprobe {

Result<AtomicFile> AtomicFile::Create(const std::string& path) {
  std::string temp = path + ".tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (!f) return Status::IOError(path, std::string("cannot create: ") + std::strerror(errno));
  return AtomicFile(path, std::move(temp), f);
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)), temp_path_(std::move(other.temp_path_)),
      file_(std::exchange(other.file_, nullptr)), committed_(other.committed_) {}

AtomicFile::~AtomicFile() {
  if (file_) std::fclose(file_);
  if (!committed_ && !temp_path_.empty()) std::remove(temp_path_.c_str());
}

Status AtomicFile::Write(Bytes data) {
  if (!file_) return Status::Internal(path_, "write after commit");
  if (!data.empty() && std::fwrite(data.data(), 1, data.size(), file_) != data.size()) {
    return Status::IOError(path_, std::string("write failed: ") + std::strerror(errno));
  }
  return Status::Ok();
}

Status AtomicFile::Commit() {
  if (!file_) return Status::Internal(path_, "commit twice");
  // No fsync: the rename already publishes only complete files if the process dies. Surviving a power
  // cut is not promised, and forcing writeback of a half-GB result would cost seconds.
  const bool flushed = std::fflush(file_) == 0;
  const int flush_errno = errno;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!flushed || !closed) return Status::IOError(path_, std::string("write failed: ") + std::strerror(flush_errno));
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    return Status::IOError(path_, std::string("cannot rename into place: ") + std::strerror(errno));
  }
  committed_ = true;
  return Status::Ok();
}

Status WriteFileAtomically(const std::string& path, std::string_view data) {
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  MSP_RETURN_IF_ERROR(file.Write(data));
  return file.Commit();
}

}  // namespace msprobe
