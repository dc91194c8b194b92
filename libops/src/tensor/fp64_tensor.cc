#include "msprobe/ops/tensor/fp64_tensor.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace msprobe::ops {

int64_t Numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string ShapeText(const std::vector<int64_t>& shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

Fp64Tensor Zeros(std::vector<int64_t> shape) {
  Fp64Tensor t;
  t.data.assign(static_cast<size_t>(Numel(shape)), 0.0);
  t.shape = std::move(shape);
  return t;
}

}  // namespace msprobe::ops
