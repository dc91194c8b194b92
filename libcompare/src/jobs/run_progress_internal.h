// A run's progress as one bar whose total is fixed before the first pair starts: each pair weighs
// the bytes of its target dump.json, so a multi-rank run counts up once instead of restarting its
// total with each rank, and pairs that report nothing of their own still move it. A distributed run
// shows it on process 0, where the other processes' pairs move it when their outcomes arrive.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "jobs/compare_inputs_internal.h"
#include "msprobe/dump/util/job_context.h"

namespace msprobe::compare::internal {

// What the bar counts: the bytes of the target dump.json files (a program shows them as sizes).
inline constexpr std::string_view kProgressBytes = "bytes";

class RunProgress {
 public:
  // `progress` empty: nothing is measured or reported.
  RunProgress(const Progress& progress, const std::vector<ComparePairSpec>& specs);

  // The pairs' own progress, labelled by their target dump.json: moves that pair's share. Empty when
  // the caller wants no progress; refers to this object.
  Progress callback();
  // A pair done: its whole share, whatever it reported.
  void Finished(const std::string& target_json);

 private:
  void Set(const std::string& target_json, double fraction);  // with mutex_ held

  const Progress& progress_;
  std::mutex mutex_;
  std::unordered_map<std::string, uint64_t> weight_;  // by target dump.json
  std::unordered_map<std::string, uint64_t> done_;    // the share counted so far
  uint64_t total_ = 0, sum_ = 0;
};

}  // namespace msprobe::compare::internal
