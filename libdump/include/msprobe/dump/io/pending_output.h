// An output that another library writes by path (SQLite opens its database itself), kept under a
// temporary name beside its final one until it is complete, as AtomicFile does for our own writers:
// no reader ever sees a partial output under the final name, and a SIGINT or SIGTERM removes it.
#pragma once

#include <string>

#include "msprobe/dump/util/status.h"

namespace msprobe {

class PendingOutput {
 public:
  // Creates the temporary file, empty, beside `path` ("<path>.tmp.<16 random hex digits>").
  static Result<PendingOutput> Create(const std::string& path);
  PendingOutput(PendingOutput&& other) noexcept;
  PendingOutput& operator=(PendingOutput&&) = delete;
  PendingOutput(const PendingOutput&) = delete;
  ~PendingOutput();  // removes the temporary file unless Commit() succeeded

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }  // where the writer writes
  // Renames the temporary file to the final path, replacing what was there. The writer must have
  // closed it.
  Status Commit();

 private:
  PendingOutput(std::string path, std::string temp_path, int pending_slot)
      : path_(std::move(path)), temp_path_(std::move(temp_path)), pending_slot_(pending_slot) {}

  std::string path_;
  std::string temp_path_;
  int pending_slot_ = -1;
  bool committed_ = false;
};

}  // namespace msprobe
