#include "jobs/run_progress_internal.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace msprobe::compare::internal {

RunProgress::RunProgress(const Progress& progress, const std::vector<ComparePairSpec>& specs) : progress_(progress) {
  if (!progress_) return;  // nothing shown: no file to measure
  for (const ComparePairSpec& spec : specs) {
    std::error_code ec;
    const uintmax_t size = std::filesystem::file_size(spec.target_json, ec);
    const uint64_t weight = ec ? 1 : std::max<uint64_t>(size, 1);  // an unreadable file fails its pair later
    weight_[spec.target_json] += weight;
    total_ += weight;
  }
  progress_(kProgressBytes, 0, total_);  // the bar and its total from the start
}

Progress RunProgress::callback() {
  if (!progress_) return {};
  return [this](std::string_view label, uint64_t done, uint64_t total) {
    if (total == 0) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    Set(std::string(label), static_cast<double>(std::min(done, total)) / static_cast<double>(total));
  };
}

void RunProgress::Finished(const std::string& target_json) {
  if (!progress_) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  Set(target_json, 1.0);
}

void RunProgress::Set(const std::string& target_json, double fraction) {
  const auto weight = weight_.find(target_json);
  if (weight == weight_.end()) return;
  uint64_t& counted = done_[target_json];
  const uint64_t now = std::max(counted, static_cast<uint64_t>(fraction * static_cast<double>(weight->second)));
  sum_ += now - counted;
  counted = now;
  progress_(kProgressBytes, sum_, total_);
}

}  // namespace msprobe::compare::internal
