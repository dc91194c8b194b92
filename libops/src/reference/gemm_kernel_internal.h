// The float64 GEMM of libops, one copy per instruction set (gemm_kernel.cc built once for each by
// libops/CMakeLists.txt), and the copy this CPU runs (gemm_isa.cc, docs/ops.md §4).
#pragma once

#include <cstdint>

namespace msprobe::ops::internal {

// C[m×n] = A[m×k] · B, all dense row-major; B is [k×n], or [n×k] read transposed when b_transposed.
using GemmFn = void (*)(const double* a, const double* b, double* c, int64_t m, int64_t k, int64_t n, bool b_transposed);

#if defined(__x86_64__)
void GemmSse2(const double* a, const double* b, double* c, int64_t m, int64_t k, int64_t n, bool b_transposed);
void GemmAvx2(const double* a, const double* b, double* c, int64_t m, int64_t k, int64_t n, bool b_transposed);
void GemmAvx512(const double* a, const double* b, double* c, int64_t m, int64_t k, int64_t n, bool b_transposed);
#elif defined(__aarch64__)
void GemmNeon(const double* a, const double* b, double* c, int64_t m, int64_t k, int64_t n, bool b_transposed);
#else
void GemmGeneric(const double* a, const double* b, double* c, int64_t m, int64_t k, int64_t n, bool b_transposed);
#endif

}  // namespace msprobe::ops::internal
