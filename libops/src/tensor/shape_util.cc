#include "tensor/shape_util_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace msprobe::ops::internal {

std::optional<int64_t> WrapDim(int64_t dim, int64_t ndim) {
  const int64_t n = std::max<int64_t>(ndim, 1);  // a 0-d tensor takes dims -1 and 0
  if (dim < -n || dim >= n) return std::nullopt;
  return dim < 0 ? dim + n : dim;
}

std::string DimRangeError(int64_t dim, int64_t ndim) {
  const int64_t n = std::max<int64_t>(ndim, 1);
  return fmt::format("dimension out of range (expected to be in range of [{}, {}], but got {})", -n, n - 1, dim);
}

std::optional<std::vector<int64_t>> BroadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> Strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t s = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = s;
    s *= shape[d];
  }
  return strides;
}

Fp64Tensor Materialize(const Fp64Tensor& t, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides) {
  Fp64Tensor out = Zeros(shape);
  ForEachStrided(t, shape, strides, [&out](size_t i, double v) { out.data[i] = v; });
  return out;
}

std::vector<int64_t> BroadcastStrides(const std::vector<int64_t>& own_shape, const std::vector<int64_t>& shape) {
  const std::vector<int64_t> own = Strides(own_shape);
  std::vector<int64_t> strides(shape.size(), 0);  // broadcast dims step 0
  const size_t lead = shape.size() - own_shape.size();
  for (size_t d = 0; d < own_shape.size(); ++d) strides[lead + d] = own_shape[d] == 1 ? 0 : own[d];
  return strides;
}

Fp64Tensor BroadcastTo(const Fp64Tensor& t, const std::vector<int64_t>& shape) {
  if (t.shape == shape) return t;
  return Materialize(t, shape, BroadcastStrides(t.shape, shape));
}

Fp64Tensor Permute(const Fp64Tensor& t, const std::vector<int64_t>& perm) {
  const std::vector<int64_t> own = Strides(t.shape);
  std::vector<int64_t> shape(perm.size()), strides(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) {
    shape[i] = t.shape[static_cast<size_t>(perm[i])];
    strides[i] = own[static_cast<size_t>(perm[i])];
  }
  return Materialize(t, shape, strides);
}

Fp64Tensor Transpose(const Fp64Tensor& t, int64_t a, int64_t b) {
  std::vector<int64_t> perm(t.shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[static_cast<size_t>(a)], perm[static_cast<size_t>(b)]);
  return Permute(t, perm);
}

DimSplit SplitAt(const std::vector<int64_t>& shape, int64_t d) {
  DimSplit s;
  for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i) {
    const int64_t n = shape[static_cast<size_t>(i)];
    if (i < d) s.outer *= n;
    else if (i == d) s.size = n;
    else s.inner *= n;
  }
  return s;
}

}  // namespace msprobe::ops::internal
