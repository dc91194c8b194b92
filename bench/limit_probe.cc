// ProbeAdd, compiled with -march=native (bench/CMakeLists.txt): as fast as this CPU reads two arrays.
#include "limit_probe.h"

#include <algorithm>
#include <cmath>

namespace msprobe::bench {

void ProbeAdd(const float* a, const float* b, size_t n, ProbeSums* sums) {
  constexpr size_t kRun = 1024;  // float32 partial sums over short runs, then double
  for (size_t first = 0; first < n; first += kRun) {
    const size_t end = std::min(n, first + kRun);
    float dot = 0, a_sq = 0, b_sq = 0, abs_sum = 0, abs_max = sums->abs_max;
#pragma omp simd reduction(+ : dot, a_sq, b_sq, abs_sum) reduction(max : abs_max)
    for (size_t i = first; i < end; ++i) {
      const float x = a[i], y = b[i], d = std::fabs(x - y);
      dot += x * y;
      a_sq += x * x;
      b_sq += y * y;
      abs_sum += d;
      abs_max = std::max(abs_max, d);
    }
    sums->dot += dot;
    sums->a_sq += a_sq;
    sums->b_sq += b_sq;
    sums->abs_sum += abs_sum;
    sums->abs_max = abs_max;
  }
}

}  // namespace msprobe::bench
