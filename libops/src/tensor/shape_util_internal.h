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

// Calls fn(i, v) for each element of the view (shape, strides into t.data), i its index in C order
// and v its value, the innermost dim in a loop of its own.
template <typename Fn>
void ForEachStrided(const Fp64Tensor& t, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, Fn&& fn) {
  if (shape.empty()) {
    fn(size_t{0}, t.data[0]);
    return;
  }
  const int64_t inner = shape.back(), step = strides.back();
  if (Numel(shape) == 0) return;
  const size_t outer_dims = shape.size() - 1;
  std::vector<int64_t> index(outer_dims, 0);
  int64_t offset = 0;
  for (size_t i = 0;;) {
    for (int64_t j = 0; j < inner; ++j) fn(i++, t.data[static_cast<size_t>(offset + j * step)]);
    size_t d = outer_dims;
    for (; d-- > 0;) {  // odometer over the outer dims, in C order
      offset += strides[d];
      if (++index[d] < shape[d]) break;
      offset -= strides[d] * index[d];
      index[d] = 0;
    }
    if (d == static_cast<size_t>(-1)) return;  // every outer index wrapped: the view is done
  }
}

// The strides that read `t` expanded to `shape` (0 along broadcast dims).
// REQUIRES: BroadcastShapes(t.shape, shape) == shape.
std::vector<int64_t> BroadcastStrides(const std::vector<int64_t>& own_shape, const std::vector<int64_t>& shape);

// Calls fn(i, v) for each element of `t` expanded to `shape`, read where it lies: an operand, a bias
// or a mask broadcast to an output's shape would otherwise be copied at the output's size.
// REQUIRES: BroadcastShapes(t.shape, shape) == shape.
template <typename Fn>
void ForEachBroadcast(const Fp64Tensor& t, const std::vector<int64_t>& shape, Fn&& fn) {
  ForEachStrided(t, shape, BroadcastStrides(t.shape, shape), fn);
}

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
