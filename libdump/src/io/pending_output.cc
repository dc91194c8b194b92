#include "msprobe/dump/io/pending_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "io/pending_files_internal.h"
#include "io/temporary_file_internal.h"

namespace msprobe {

Result<PendingOutput> PendingOutput::Create(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(internal::TemporaryFile temp, internal::CreateTemporaryBeside(path, O_WRONLY));
  ::close(temp.fd);
  return PendingOutput(path, std::move(temp.path), temp.pending_slot);
}

PendingOutput::PendingOutput(PendingOutput&& other) noexcept
    : path_(std::move(other.path_)),
      temp_path_(std::move(other.temp_path_)),
      pending_slot_(std::exchange(other.pending_slot_, -1)),
      committed_(std::exchange(other.committed_, true)) {}  // nothing left for the moved-from one to remove

PendingOutput::~PendingOutput() {
  if (!committed_ && !temp_path_.empty()) std::remove(temp_path_.c_str());
  internal::ReleasePendingFile(pending_slot_);
}

Status PendingOutput::Commit() {
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    return Status::IOError(path_, std::string("cannot rename into place: ") + std::strerror(errno));
  }
  committed_ = true;
  internal::ReleasePendingFile(std::exchange(pending_slot_, -1));
  return Status::Ok();
}

}  // namespace msprobe
