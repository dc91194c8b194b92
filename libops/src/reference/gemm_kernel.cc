// Eigen's float64 GEMM as Gemm<ISA>, this file being compiled once per instruction set with that set's
// -m flags and MSPROBE_GEMM_ISA=<ISA> (libops/CMakeLists.txt, msprobe_gemm_variant).
//
// Why no copy can run another's instructions: the linker keeps one copy of each inline function or
// template instance of a given name, taken from any object. So every Eigen instance made here is
// given a name of this instruction set's own: the token Eigen is a macro for msprobe_eigen_<ISA>
// below, before Eigen's headers, so all of Eigen's namespace (its GEBP kernels, packet functions,
// cache-size queries) is msprobe_eigen_Avx512::… in the AVX-512 object and msprobe_eigen_Sse2::… in
// the SSE2 one, and the entry point is GemmAvx512 or GemmSse2. Nothing else in this file is inline or a
// template; ctest gemm_variant_symbols reads the objects' symbol tables to prove that every weak
// symbol of a variant lies in its own namespace.
#ifndef MSPROBE_GEMM_ISA
#error "compiled once per instruction set by msprobe_gemm_variant (libops/CMakeLists.txt)"
#endif
#define MSPROBE_GEMM_CAT2(a, b) a##b
#define MSPROBE_GEMM_CAT(a, b) MSPROBE_GEMM_CAT2(a, b)
#define Eigen MSPROBE_GEMM_CAT(msprobe_eigen_, MSPROBE_GEMM_ISA)

#include <Eigen/Core>

#include "reference/gemm_kernel_internal.h"

namespace msprobe::ops::internal {

void MSPROBE_GEMM_CAT(Gemm, MSPROBE_GEMM_ISA)(const double* a, const double* b, double* c, int64_t m, int64_t k,
                                               int64_t n, bool b_transposed) {
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const RowMatrix> A(a, m, k);
  Eigen::Map<RowMatrix> C(c, m, n);
  if (b_transposed) {
    C.noalias() = A * Eigen::Map<const RowMatrix>(b, n, k).transpose();  // an empty inner dim gives zeros
  } else {
    C.noalias() = A * Eigen::Map<const RowMatrix>(b, k, n);
  }
}

}  // namespace msprobe::ops::internal
