// Fp64BlockCache against the kernel's own counts: the page faults of a tensor's values and the
// process's resident memory. Outside a scope oneTBB maps a block over 64 MB afresh for each tensor;
// the first test shows both, so it can tell the difference.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>
#include <tbb/global_control.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "libops/call_json.h"
#include "msprobe/dump/formats/npy_writer.h"
#include "msprobe/dump/util/sanitizers.h"
#include "msprobe/ops/check/dump_check.h"
#include "msprobe/ops/tensor/fp64_block_cache.h"
#include "msprobe/ops/tensor/fp64_tensor.h"
#include "test_support.h"

namespace msprobe::ops {
namespace {

namespace fs = std::filesystem;

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

// As the attribution runs them: two threads, each opening and ending scopes while the other allocates.
TEST_F(Fp64BlockCacheTest, ScopesOnTwoThreadsLeaveTheDefaultsBack) {
  auto work = [](uint64_t limit) {
    for (int round = 0; round < 4; ++round) {
      const Fp64BlockCache cache(limit);
      Fp64Values block(72 * kMiB / sizeof(double), 1.0);
    }
  };
  std::thread other(work, 256 * kMiB);
  work(512 * kMiB);
  other.join();
  EXPECT_GE(FaultsOfTheSecond(128 * kMiB), 64) << "after the last, mapped afresh again";
}

TEST_F(Fp64BlockCacheTest, ReturnsWhatItKeptWhenTheLastEnds) {
  std::optional<Fp64BlockCache> cache(std::in_place, 1024 * kMiB);
  { Fp64Values kept(128 * kMiB / sizeof(double), 1.0); }
  const uint64_t keeping = ResidentBytes();
  cache.reset();
  EXPECT_LT(ResidentBytes() + 100 * kMiB, keeping);
  EXPECT_GE(FaultsOfTheSecond(128 * kMiB), 64) << "after it, mapped afresh again";
}

// What blocks of five sizes, 65 to 162 MiB, each freed before the next, leave resident.
uint64_t ResidentAfterFiveSizes(uint64_t limit) {
  const Fp64BlockCache cache(limit);
  for (uint64_t mib = 65; mib <= 170; mib = mib * 5 / 4 + 1) {
    Fp64Values block(mib * kMiB / sizeof(double), 1.0);
  }
  return ResidentBytes();
}

TEST_F(Fp64BlockCacheTest, KeepsNoMoreThanItsLimit) {
  const uint64_t start = ResidentBytes();
  EXPECT_GT(ResidentAfterFiveSizes(1024 * kMiB), start + 450 * kMiB) << "a limit above them: all 541 MiB kept";
  EXPECT_LT(ResidentAfterFiveSizes(128 * kMiB), start + (128 + 162) * kMiB);
}

// CheckDumpCalls opens one for a dump with a tensor over 64 MiB in float64: three relu calls on 16 Mi
// float16 values (32 MiB files, 128 MiB in float64), one thread. Each call holds two such blocks (its
// input, which the result overwrites, and the dumped output): 2 x 32,768 faults of 4 KB pages for the
// first call, and again for each later call without a scope. The files' own faults are at most
// 6 x 8,192.
TEST_F(Fp64BlockCacheTest, CheckDumpCallsKeepsTheBlocksOfLargeTensors) {
  testing::TempDir tmp;
  const fs::path tensors = tmp.root() / "dump_tensor_data";
  fs::create_directories(tensors);
  constexpr int64_t kValues = int64_t{16} << 20;
  const std::vector<uint16_t> zeros(kValues);
  const std::string shape = fmt::format("[{}]", kValues);
  std::string entries;
  for (int call = 0; call < 3; ++call) {
    const std::string key = fmt::format("Functional.relu.{}.forward", call);
    for (const char* file : {"input.0", "output.0"}) {
      ASSERT_TRUE(WriteNpy((tensors / fmt::format("{}.{}.npy", key, file)).string(), DType::kF16,
                           {kValues}, std::as_bytes(std::span(zeros))).ok());
    }
    entries += fmt::format(R"({}"{}": {{"input_args": [{}], "input_kwargs": {{}}, "output": [{}]}})",
                           call ? ", " : "", key, T(shape, "torch.float16", key + ".input.0.npy"),
                           T(shape, "torch.float16", key + ".output.0.npy"));
  }
  testing::WriteFile(tmp.Path("dump.json"),
                     R"({"task": "tensor", "level": "L1", "framework": "pytorch", "data": {)" + entries + "}}");
  const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  const int64_t before = MinorFaults();
  const auto check = CheckDumpCalls(tmp.Path("dump.json"));
  const int64_t faults = MinorFaults() - before;
  ASSERT_TRUE(check.ok()) << check.status().ToString();
  for (const CallCheck& call : check->calls) EXPECT_EQ(call.check.verdict, SelfVerdict::kOk) << call.key;
  EXPECT_LT(faults, 2 * 32768 + 6 * 8192 + 16384) << "without the scope: 3 x 2 x 32,768 and more";
}

}  // namespace
}  // namespace msprobe::ops
