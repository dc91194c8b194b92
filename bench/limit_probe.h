// The one-pass limit of a tensor pair read (tensor_pair_bench): dot, both squared norms, the sum and
// the maximum of |a - b| over two float32 arrays, in a TU built with -march=native for the bench only.
#pragma once

#include <cstddef>

namespace msprobe::bench {

struct ProbeSums {
  double dot = 0, a_sq = 0, b_sq = 0, abs_sum = 0;
  float abs_max = 0;
};

// The sums over a[0, n) and b[0, n), in float32 lanes per 4 KiB run, added into *sums in double.
void ProbeAdd(const float* a, const float* b, size_t n, ProbeSums* sums);

}  // namespace msprobe::bench
