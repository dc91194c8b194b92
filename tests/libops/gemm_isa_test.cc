// The float64 GEMMs' instruction set (docs/ops.md §4): the best this CPU has as cpuid reports it, or
// the one MSPROBE_ISA forces (the libops.isa.* ctest runs set it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "msprobe/ops/reference/gemm_isa.h"

namespace msprobe::ops {
namespace {

#if defined(__x86_64__)
// The best set as cpuid's feature bits name them (read here with the instruction itself, not through
// libgcc's __builtin_cpu_supports as the library does; an emulator's CPU model shows through too).
const char* BestByCpuid() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  const bool fma = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_FMA) != 0 && (c & bit_OSXSAVE) != 0;
  if (!fma || !__get_cpuid_count(7, 0, &a, &b, &c, &d) || (b & bit_AVX2) == 0) return "sse2";
  return (b & bit_AVX512F) != 0 && (b & bit_AVX512DQ) != 0 ? "avx512" : "avx2";
}
#endif

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
  EXPECT_EQ(*isa, BestByCpuid());
#elif defined(__aarch64__)
  EXPECT_EQ(*isa, "neon");
#endif
}

}  // namespace
}  // namespace msprobe::ops
