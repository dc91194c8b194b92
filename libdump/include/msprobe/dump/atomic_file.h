// Writes a file under a temporary name beside its final one and renames it into place only when it
// is complete, so no reader ever sees a partial output under the final name.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "msprobe/dump/byte_cursor.h"
#include "msprobe/dump/status.h"

namespace msprobe {

class AtomicFile {
 public:
  // Creates "<path>.tmp.<pid>" for writing.
  static Result<AtomicFile> Create(const std::string& path);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&&) = delete;
  AtomicFile(const AtomicFile&) = delete;
  ~AtomicFile();  // removes the temporary file unless Commit() succeeded

  Status Write(Bytes data);
  Status Write(std::string_view text) { return Write(AsBytes(text)); }
  // Flushes, closes and renames the temporary file to the final path.
  Status Commit();
  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }

 private:
  AtomicFile(std::string path, std::string temp_path, std::FILE* file)
      : path_(std::move(path)), temp_path_(std::move(temp_path)), file_(file) {}
  std::string path_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

// Writes `data` to `path` atomically.
Status WriteFileAtomically(const std::string& path, std::string_view data);

}  // namespace msprobe
