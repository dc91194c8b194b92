// How a distributed run shares its pairs (docs/distributed.md §2).
#include "cluster/work_share_internal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace msprobe::compare::internal {
namespace {

std::vector<uint64_t> Loads(const std::vector<uint64_t>& bytes, const std::vector<PairShare>& shares, int n) {
  std::vector<uint64_t> load(n, 0);
  for (size_t i = 0; i < shares.size(); ++i) {
    for (int p : shares[i].processes) load.at(p) += bytes[i] / shares[i].processes.size();
  }
  return load;
}

TEST(SharePairs, LargestFirstToTheLeastLoaded) {
  // 10, 7, 5, 4, 3 over 2: 10→0, 7→1, 5→1, 4→0, 3→1 (ties to the lower process).
  const std::vector<PairShare> shares = SharePairs({5, 10, 3, 7, 4}, std::vector<bool>(5, false), 2);
  const std::vector<int> want = {1, 0, 1, 1, 0};
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(shares[i].processes.size(), 1u);
    EXPECT_EQ(shares[i].processes[0], want[i]) << i;
  }
}

TEST(SharePairs, AThousandRanksOverSixtyFourFinishTogether) {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> bytes(1000);
  for (uint64_t& b : bytes) b = 20'000'000'000 + rng() % 60'000'000'000;  // 20 to 80 GB
  const std::vector<PairShare> shares = SharePairs(bytes, std::vector<bool>(bytes.size(), true), 64);
  const std::vector<uint64_t> load = Loads(bytes, shares, 64);
  // The last process to finish ends within 3% of the ideal (every process holding the mean).
  const double mean = static_cast<double>(std::accumulate(bytes.begin(), bytes.end(), uint64_t{0})) / 64;
  EXPECT_LT(static_cast<double>(*std::max_element(load.begin(), load.end())) / mean, 1.03);
  for (const PairShare& s : shares) EXPECT_EQ(s.processes.size(), 1u);  // none larger than a share
}

TEST(SharePairs, APairLargerThanAShareIsSplitAcrossDistinctProcesses) {
  // Two pairs over four processes: each in two slices, on four different processes.
  std::vector<PairShare> shares = SharePairs({100, 100}, {true, true}, 4);
  ASSERT_EQ(shares[0].processes.size(), 2u);
  ASSERT_EQ(shares[1].processes.size(), 2u);
  std::vector<int> all = shares[0].processes;
  all.insert(all.end(), shares[1].processes.begin(), shares[1].processes.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<int>{0, 1, 2, 3}));
  // One pair over three: all three share it, process 0 owning it.
  shares = SharePairs({90}, {true}, 3);
  EXPECT_EQ(shares[0].processes, (std::vector<int>{0, 1, 2}));
  // Not splittable (statistics, -da): whole.
  shares = SharePairs({90}, {false}, 3);
  EXPECT_EQ(shares[0].processes, (std::vector<int>{0}));
}

TEST(SliceRows, SlicesCoverTheRowsOnceInOrder) {
  for (size_t rows : {0, 1, 5, 52, 1000}) {
    for (size_t slices : {1, 2, 3, 7}) {
      size_t next = 0;
      for (size_t s = 0; s < slices; ++s) {
        const auto [begin, end] = SliceRows(rows, s, slices);
        EXPECT_EQ(begin, next);
        EXPECT_LE(end - begin, rows / slices + 1);
        next = end;
      }
      EXPECT_EQ(next, rows);
    }
  }
}

}  // namespace
}  // namespace msprobe::compare::internal
