// Shape rules shared by the references, as torch has them: dim wrapping, broadcasting, strided
// re-layout (permute, broadcast) of a dense float64 tensor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/ops/tensor/fp64_tensor.h"

namespace msprobe::ops::internal {

// torch's maybe_wrap_dim: dim in [-ndim, ndim) (a 0-d tensor takes -1 and 0) → [0, ndim). nullopt
// when out of range.
std::optional<int64_t> WrapDim(int64_t dim, int64_t ndim);
// "Dimension out of range (expected to be in range of [-2, 1], but got 3)", torch's message.
std::string DimRangeError(int64_t dim, int64_t ndim);

// The broadcast of two shapes (trailing dims aligned; sizes equal or 1); nullopt when incompatible.
std::optional<std::vector<int64_t>> BroadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// Element strides of `shape` in C order.
std::vector<int64_t> Strides(const std::vector<int64_t>& shape);

// Copies the view (shape, strides into t.data) into a dense tensor.
Fp64Tensor Materialize(const Fp64Tensor& t, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides);
// `t` expanded to `shape`. REQUIRES: BroadcastShapes(t.shape, shape) == shape.
Fp64Tensor BroadcastTo(const Fp64Tensor& t, const std::vector<int64_t>& shape);
// out dim i = t dim perm[i]. REQUIRES: perm is a permutation of [0, t.dim()).
Fp64Tensor Permute(const Fp64Tensor& t, const std::vector<int64_t>& perm);
// Dims a and b swapped (already wrapped).
Fp64Tensor Transpose(const Fp64Tensor& t, int64_t a, int64_t b);

// Splits `shape` around dim d: outer = prod(shape[:d]), size = shape[d], inner = prod(shape[d+1:]).
struct DimSplit {
  int64_t outer = 1, size = 1, inner = 1;
};
DimSplit SplitAt(const std::vector<int64_t>& shape, int64_t d);

}  // namespace msprobe::ops::internal
