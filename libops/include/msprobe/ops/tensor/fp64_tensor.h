// A dense C-order float64 tensor: what an input becomes once decoded, and what a reference produces.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace msprobe::ops {

struct Fp64Tensor {
  std::vector<int64_t> shape;  // [] for 0-d
  std::vector<double> data;    // Numel(shape) values in C order

  int64_t dim() const { return static_cast<int64_t>(shape.size()); }
  int64_t numel() const { return static_cast<int64_t>(data.size()); }
};

int64_t Numel(const std::vector<int64_t>& shape);
// "[2, 3]", "[]" for 0-d; for messages.
std::string ShapeText(const std::vector<int64_t>& shape);
// A zero-filled tensor of `shape`.
Fp64Tensor Zeros(std::vector<int64_t> shape);

}  // namespace msprobe::ops
