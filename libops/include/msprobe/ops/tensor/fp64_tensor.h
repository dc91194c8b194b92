// A dense C-order float64 tensor: what an input becomes once decoded, and what a reference produces.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tbb/scalable_allocator.h>

#include "msprobe/dump/util/sanitizers.h"

namespace msprobe::ops {

// Where a tensor's values live. oneTBB's scalable allocator keeps freed blocks of up to 64 MB for the
// next tensor (larger ones too while an Fp64BlockCache is alive). glibc's malloc serves a worker
// thread's large blocks from mappings (a heap of at most 64 MB, or a mapping of their own) that it
// unmaps once they are free, so each float64 tensor of a recompute was faulted in afresh, 4 KB at a
// time (docs/ops.md §4, "Where the float64 values live"). Under AddressSanitizer the values stay with
// std::allocator, whose blocks it guards.
#if MSPROBE_UNDER_ASAN
using Fp64Values = std::vector<double>;
#else
using Fp64Values = std::vector<double, tbb::scalable_allocator<double>>;
#endif

struct Fp64Tensor {
  std::vector<int64_t> shape;  // [] for 0-d
  Fp64Values data;             // Numel(shape) values in C order

  int64_t dim() const { return static_cast<int64_t>(shape.size()); }
  int64_t numel() const { return static_cast<int64_t>(data.size()); }
};

int64_t Numel(const std::vector<int64_t>& shape);
// "[2, 3]", "[]" for 0-d; for messages.
std::string ShapeText(const std::vector<int64_t>& shape);
// A zero-filled tensor of `shape`.
Fp64Tensor Zeros(std::vector<int64_t> shape);

}  // namespace msprobe::ops
