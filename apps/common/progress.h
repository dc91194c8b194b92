// A one-line progress bar on stderr, drawn only when stderr is a terminal and not quieted: the
// progress of a program's job (JobContext).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

#include "msprobe/dump/util/job_context.h"

namespace msprobe::cli {

// "1.5 MiB", "2.00 GiB", "512 B".
std::string HumanBytes(uint64_t bytes);

class ProgressBar {
 public:
  ProgressBar(std::string label, bool quiet);
  ~ProgressBar() { Clear(); }
  void Clear();  // erases the bar so the next output starts on a clean line
  // Thread-safe; redraws at most ten times a second. `bytes`: the counts are shown as sizes.
  void Update(uint64_t done, uint64_t total, bool bytes = false);
  // Update as a job's progress: counts as sizes when it counts "bytes", else as numbers. Refers to this bar.
  Progress Callback();

 private:
  std::string label_;
  bool enabled_;
  std::mutex mu_;
  std::chrono::steady_clock::time_point last_draw_{};
  bool drawn_ = false;
};

// A job's warnings as "<program>: warning: <source>: <message>" lines on stderr, printed even under -q;
// the bar (none: nullptr) is erased first so a warning never shares its line.
Warn PrintWarnings(std::string program, ProgressBar* bar);

}  // namespace msprobe::cli
