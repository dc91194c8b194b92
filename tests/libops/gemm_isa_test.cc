// The float64 GEMMs' instruction set (docs/ops.md §4): the best this CPU has as /proc/cpuinfo lists its
// flags, or the one MSPROBE_ISA forces (the libops.isa.* ctest runs set it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "msprobe/ops/reference/gemm_isa.h"

namespace msprobe::ops {
namespace {

// The flags of the first processor in /proc/cpuinfo ("flags" on x86-64).
std::set<std::string> CpuFlags() {
  std::ifstream in("/proc/cpuinfo");
  std::set<std::string> flags;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    for (std::string w; words >> w;) flags.insert(w);
    break;
  }
  return flags;
}

TEST(GemmIsa, ForcedOrTheCpusBest) {
  const char* forced = std::getenv("MSPROBE_ISA");
  const Result<std::string_view> isa = GemmIsa();
  if (forced != nullptr && *forced != '\0') {
    // The libops.isa.* ctest runs skip on this line when the CPU lacks their set.
    if (!isa.ok() && isa.status().message().starts_with("this CPU lacks")) GTEST_SKIP() << "MSPROBE_ISA: this CPU lacks " << forced;
    ASSERT_TRUE(isa.ok()) << isa.status().ToString();
    EXPECT_EQ(*isa, forced);
    EXPECT_EQ(GemmIsaLine().rfind(std::string("Float64 GEMMs run on ") + forced + " (this CPU runs ", 0), 0u) << GemmIsaLine();
    return;
  }
  ASSERT_TRUE(isa.ok()) << isa.status().ToString();
#if defined(__x86_64__)
  const std::set<std::string> f = CpuFlags();
  const bool avx2 = f.count("avx2") && f.count("fma");
  const char* best = avx2 && f.count("avx512f") && f.count("avx512dq") ? "avx512" : avx2 ? "avx2" : "sse2";
  EXPECT_EQ(*isa, best);
#elif defined(__aarch64__)
  EXPECT_EQ(*isa, "neon");
#endif
}

}  // namespace
}  // namespace msprobe::ops
