// What the compare tests expect of a run's progress (docs/compare.md §7.5): the reports of one bar,
// recorded from any thread, and the shape every run's bar must have.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "msprobe/dump/util/job_context.h"

namespace msprobe::compare::progress_reports {

// The (done, total) reports of one bar, in the order they came; each must count "bytes".
class BarReports {
 public:
  // Refers to this object.
  Progress Callback() {
    return [this](std::string_view what, uint64_t done, uint64_t total) {
      const std::lock_guard<std::mutex> lock(mutex_);
      EXPECT_EQ(what, "bytes");
      reports_.emplace_back(done, total);
    };
  }
  const std::vector<std::pair<uint64_t, uint64_t>>& reports() const { return reports_; }

 private:
  std::mutex mutex_;
  std::vector<std::pair<uint64_t, uint64_t>> reports_;
};

// One bar: (0, bytes) first, the same total throughout, never counting back, (bytes, bytes) last.
inline void ExpectOneBar(const std::vector<std::pair<uint64_t, uint64_t>>& reports, uint64_t bytes) {
  ASSERT_FALSE(reports.empty());
  EXPECT_EQ(reports.front(), std::make_pair(uint64_t{0}, bytes));
  EXPECT_EQ(reports.back(), std::make_pair(bytes, bytes));
  for (size_t i = 1; i < reports.size(); ++i) {
    EXPECT_EQ(reports[i].second, bytes) << "report " << i;
    EXPECT_GE(reports[i].first, reports[i - 1].first) << "report " << i;
  }
}

}  // namespace msprobe::compare::progress_reports
