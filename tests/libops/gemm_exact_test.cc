// The float64 GEMM (op_kernels_internal.h, Gemm) on small-integer matrices, whose products and sums are
// exact in float64 whatever the order and whether multiply-adds are fused: every copy (libops.isa.*
// ctest runs) must give the integer product, B read as it is and transposed, through each of Eigen's
// paths (coefficient-wise for tiny sizes, GEMV for one row or column, blocked GEMM beyond).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "reference/op_kernels_internal.h"

namespace msprobe::ops::internal {
namespace {

// Entries in [-8, 8] from a fixed linear congruential sequence.
std::vector<double> Small(int64_t count, uint64_t seed) {
  std::vector<double> v(static_cast<size_t>(count));
  for (double& x : v) seed = seed * 6364136223846793005u + 1442695040888963407u, x = static_cast<double>((seed >> 33) % 17) - 8;
  return v;
}

class GemmExact : public ::testing::TestWithParam<std::array<int64_t, 3>> {};

TEST_P(GemmExact, IntegerProduct) {
  const auto [m, k, n] = GetParam();
  const std::vector<double> a = Small(m * k, 1), b = Small(k * n, 2);
  std::vector<double> bt(b.size());  // B transposed: [n×k]
  for (int64_t r = 0; r < k; ++r) {
    for (int64_t c = 0; c < n; ++c) bt[static_cast<size_t>(c * k + r)] = b[static_cast<size_t>(r * n + c)];
  }
  std::vector<double> c(static_cast<size_t>(m * n), -1), ct(c.size(), -1);
  Gemm(a.data(), b.data(), c.data(), m, k, n, false);
  Gemm(a.data(), bt.data(), ct.data(), m, k, n, true);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      int64_t expected = 0;
      for (int64_t p = 0; p < k; ++p) {
        expected += static_cast<int64_t>(a[static_cast<size_t>(i * k + p)]) * static_cast<int64_t>(b[static_cast<size_t>(p * n + j)]);
      }
      const size_t at = static_cast<size_t>(i * n + j);
      ASSERT_EQ(c[at], static_cast<double>(expected)) << "C(" << i << ", " << j << ")";
      ASSERT_EQ(ct[at], static_cast<double>(expected)) << "C(" << i << ", " << j << ") with B transposed";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, GemmExact,
                         ::testing::Values(std::array<int64_t, 3>{3, 4, 5}, std::array<int64_t, 3>{1, 300, 1},
                                           std::array<int64_t, 3>{1, 300, 77}, std::array<int64_t, 3>{77, 300, 1},
                                           std::array<int64_t, 3>{67, 300, 45}, std::array<int64_t, 3>{130, 700, 97},
                                           std::array<int64_t, 3>{3, 0, 2}));

}  // namespace
}  // namespace msprobe::ops::internal
