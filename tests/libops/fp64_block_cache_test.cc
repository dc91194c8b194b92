// Fp64BlockCache against the kernel's own counts: the page faults of a tensor's values and the
// process's resident memory. Outside a scope oneTBB maps a block over 64 MB afresh for each tensor;
// the first test shows both, so it can tell the difference.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <optional>

#include "msprobe/dump/util/sanitizers.h"
#include "msprobe/ops/tensor/fp64_block_cache.h"
#include "msprobe/ops/tensor/fp64_tensor.h"

namespace msprobe::ops {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

int64_t MinorFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

uint64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// The page faults of filling a fresh tensor of `bytes` (then freed), after one of that size was freed.
int64_t FaultsOfTheSecond(uint64_t bytes) {
  const size_t values = bytes / sizeof(double);
  { Fp64Values first(values, 1.0); }
  const int64_t before = MinorFaults();
  { Fp64Values second(values, 2.0); }
  return MinorFaults() - before;
}

class Fp64BlockCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (MSPROBE_UNDER_ASAN) GTEST_SKIP() << "under AddressSanitizer the values are std::allocator's";
  }
};

// 128 MiB: 32,768 faults of 4 KB pages, 64 of 2 MB ones.
TEST_F(Fp64BlockCacheTest, KeepsABlockOver64MBForTheNextTensor) {
  EXPECT_GE(FaultsOfTheSecond(128 * kMiB), 64) << "outside a scope, mapped afresh";
  const Fp64BlockCache cache(1024 * kMiB);
  EXPECT_LT(FaultsOfTheSecond(128 * kMiB), 16) << "in a scope, the freed block again";
}

TEST_F(Fp64BlockCacheTest, KeepsThemWhileAnyScopeLives) {
  const Fp64BlockCache outer(1024 * kMiB);
  { const Fp64BlockCache inner(512 * kMiB); }
  EXPECT_LT(FaultsOfTheSecond(128 * kMiB), 16);
}

TEST_F(Fp64BlockCacheTest, ReturnsWhatItKeptWhenTheLastEnds) {
  std::optional<Fp64BlockCache> cache(std::in_place, 1024 * kMiB);
  { Fp64Values kept(128 * kMiB / sizeof(double), 1.0); }
  const uint64_t keeping = ResidentBytes();
  cache.reset();
  EXPECT_LT(ResidentBytes() + 100 * kMiB, keeping);
  EXPECT_GE(FaultsOfTheSecond(128 * kMiB), 64) << "after it, mapped afresh again";
}

// What blocks of eight sizes, 65 to 318 MiB, each freed before the next, leave resident.
uint64_t ResidentAfterEightSizes(uint64_t limit) {
  const Fp64BlockCache cache(limit);
  for (uint64_t mib = 65; mib <= 320; mib = mib * 5 / 4 + 1) {
    Fp64Values block(mib * kMiB / sizeof(double), 1.0);
  }
  return ResidentBytes();
}

TEST_F(Fp64BlockCacheTest, KeepsNoMoreThanItsLimit) {
  const uint64_t start = ResidentBytes();
  EXPECT_GT(ResidentAfterEightSizes(4096 * kMiB), start + 1000 * kMiB) << "a limit above them: all kept";
  EXPECT_LT(ResidentAfterEightSizes(256 * kMiB), start + (256 + 318) * kMiB);
}

}  // namespace
}  // namespace msprobe::ops
