// Writes a file under a temporary name beside its final one and renames it into place only when it
// is complete, so no reader ever sees a partial output under the final name.
//
// Output is gathered in an aligned buffer. A file that grows past one buffer is written from then on
// with O_DIRECT where the file system allows it: the device reads the buffer itself, instead of the
// kernel copying every byte into the page cache (on the machines we measured, that copy cost a core
// for every 0.4 GB/s written, and a -da run writes gigabytes of json), and a large output does not
// evict the dumps being compared from the cache. The tail, and every file of one buffer or less, is
// written normally. Where O_DIRECT is refused, all of it is.
//
// The temporary name is "<path>.tmp.<16 random hex digits>", created with O_EXCL | O_NOFOLLOW: a name
// that cannot be guessed, and never a file or link planted there, so nothing outside the output
// directory can be overwritten through it. A SIGINT or SIGTERM removes the temporary files in flight.
//
// A full buffer is written by a thread of its own while the caller fills the next one: a writer
// blocked on the device would otherwise leave its core idle (the work that feeds it runs on the
// same few cores). At most one buffer is in flight; its error comes back from the next flush or Commit().
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/util/status.h"

namespace msprobe {

class AtomicFile {
 public:
  // Creates a new temporary file beside `path` for writing.
  static Result<AtomicFile> Create(const std::string& path);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&&) = delete;
  AtomicFile(const AtomicFile&) = delete;
  ~AtomicFile();  // removes the temporary file unless Commit() succeeded

  Status Write(Bytes data);
  Status Write(std::string_view text) { return Write(AsBytes(text)); }
  // Writes what is buffered, closes and renames the temporary file to the final path.
  Status Commit();
  // Changes the final path before Commit, to another name in the same directory (a writer that
  // learns its output's name only at the end, such as a csv that turns out to need parts).
  void Rename(std::string path) { path_ = std::move(path); }
  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }

  // A multiple of every device's block size. Two of them per file being written: 8 MB ones were an
  // eighth of a small statistics compare's peak memory, 2 MB ones a thirtieth, and 1 MB ones write
  // about as fast (docs/compare.md §6.1).
  static constexpr size_t kBufferBytes = 1u << 20;

 private:
  struct FreeBuffer {
    void operator()(char* p) const;
  };
  AtomicFile(std::string path, std::string temp_path, int fd, int pending_slot)
      : path_(std::move(path)), temp_path_(std::move(temp_path)), fd_(fd), pending_slot_(pending_slot) {}
  // Hands the full buffer to a writer thread, switching the file to O_DIRECT the first time.
  Status FlushFullBuffer();
  // Waits for the buffer in flight; its write's status.
  Status WaitForWrite();
  Status WriteAll(const char* data, size_t size);

  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  int pending_slot_ = -1;  // the temporary file's entry for removal on SIGINT/SIGTERM
  std::unique_ptr<char, FreeBuffer> buffer_;  // kBufferBytes, page-aligned; allocated on first write
  std::unique_ptr<char, FreeBuffer> flushing_;  // the buffer being written by writer_
  std::thread writer_;
  Status written_;  // writer_'s result
  size_t used_ = 0;
  bool direct_tried_ = false;
  bool direct_ = false;
  bool committed_ = false;
};

// Writes `data` to `path` atomically.
Status WriteFileAtomically(const std::string& path, std::string_view data);

}  // namespace msprobe
