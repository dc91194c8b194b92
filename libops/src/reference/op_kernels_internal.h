// The reference of each op family (one file each); the registry (reference.cc) maps API names to them.
#pragma once

#include "reference/op_call_internal.h"

namespace msprobe::ops::internal {

// gemm_isa.cc: C[m×n] = A[m×k] · B, dense row-major, B [k×n] or [n×k] read transposed, by Eigen's GEMM
// built for this CPU's instruction set (gemm_kernel.cc).
void Gemm(const double* a, const double* b, double* c, int64_t m, int64_t k, int64_t n, bool b_transposed);
// matmul.cc
// torch.matmul's rules (1-D operands, broadcast batch dims) on loaded tensors.
Result<Fp64Tensor> Matmul(const OpCall& call, const Fp64Tensor& a, const Fp64Tensor& b);
Result<Outputs> MatmulOp(const OpCall& call);
Result<Outputs> MmOp(const OpCall& call);
Result<Outputs> BmmOp(const OpCall& call);
Result<Outputs> LinearOp(const OpCall& call);

// conv.cc
Result<Outputs> Conv2dOp(const OpCall& call);

// norms.cc
Result<Outputs> LayerNormOp(const OpCall& call);
Result<Outputs> NpuRmsNormOp(const OpCall& call);
Result<Outputs> RmsNormOp(const OpCall& call);

// activations.cc. Softmax's dtype= sits at position 3 in Functional.softmax (after _stacklevel), 2 in
// Torch.softmax / Tensor.softmax.
enum class Unary : uint8_t { kRelu, kSigmoid, kTanh, kExp, kLog, kSqrt, kRsqrt, kSilu };
Result<Outputs> UnaryOp(const OpCall& call, Unary op);
Result<Outputs> GeluOp(const OpCall& call);
// Softmax (or log-softmax) of `size` values `stride` apart, max-shifted; an all -inf row gives NaN.
void SoftmaxInPlace(double* base, int64_t size, int64_t stride, bool log);
Result<Outputs> SoftmaxOp(const OpCall& call, bool log, bool functional);
Result<Outputs> DropoutOp(const OpCall& call);

// elementwise.cc. `reflected`: the __r*__ forms compute other ∘ self; `inplace`: the result keeps
// self's shape (add_, __iadd__).
enum class Binary : uint8_t { kAdd, kSub, kMul, kDiv };
Result<Outputs> BinaryOp(const OpCall& call, Binary op, bool reflected, bool inplace);

// reductions.cc
Result<Outputs> SumOp(const OpCall& call, bool mean);

// attention.cc
Result<Outputs> SdpaOp(const OpCall& call);

// shape_ops.cc. `method`: Tensor.* forms that take their ints as varargs (Tensor.view(2, 3)).
Result<Outputs> CatOp(const OpCall& call, bool stack);
Result<Outputs> TransposeOp(const OpCall& call);
Result<Outputs> ReshapeOp(const OpCall& call, bool method);
Result<Outputs> PermuteOp(const OpCall& call, bool method);
Result<Outputs> EmbeddingOp(const OpCall& call);

}  // namespace msprobe::ops::internal
