// The single-pass reductions behind the tensor metrics (docs/compare.md §4.2 step 6): for two aligned windows
// of elements, the dot product, both squared norms, the squared difference sum, the largest |n - b|,
// the largest relative error, the counts of relative errors under 0.001 and 0.005, and whether the
// NaN/Inf positions of the two sides differ (step 4), with matching NaN/Inf positions read as 0.
#pragma once

#include <cstdint>

#include "msprobe/dump/tensor/dtype.h"
#include "msprobe/dump/io/mapped_file.h"

namespace msprobe::compare::internal {

// Elements per kernel block. Sums are formed per block in fixed lanes and blocks are added with a
// double-double accumulator, so the result does not depend on how windows cut the tensor as long as
// every window starts at a multiple of kBlock.
inline constexpr uint64_t kBlock = 4096;

// hi + lo with error-free additions: the block sums are added almost exactly, in any order.
struct DoubleDouble {
  double hi = 0, lo = 0;
  void Add(double x);
  void Add(const DoubleDouble& other) {
    Add(other.hi);
    Add(other.lo);
  }
  double Value() const;
};

// The relative-error type T of §4.2 step 6.2: float32 when both sides are f16/bf16/f32 (or float8,
// which msprobe decodes to float32), float64 otherwise.
enum class RelPrecision : uint8_t { kFloat32, kFloat64 };
RelPrecision RelPrecisionOf(DType target, DType golden);
// Whether the kernel can decode `dtype` (every dtype but int4).
bool KernelSupports(DType dtype);

struct PairSums {
  DoubleDouble dot, target_sq, golden_sq, diff_sq;
  double max_abs = 0;   // max |n - b| in float64
  double max_rel = 0;   // max RE, computed in T and held exactly
  uint64_t below_thousandth = 0, below_five_thousandths = 0;  // RE < kOneThousandthRatio / kFiveThousandthsRatio, in T
  bool mask_mismatch = false;  // NaN/Inf positions differ: every other field is meaningless

  void Merge(const PairSums& other);
};

// Adds `count` elements of each side (native-order bytes of the given dtypes) to `sums`.
// REQUIRES: both dtypes KernelSupports; the windows start at the same element index.
void ConsumePair(DType target_dtype, const std::byte* target, DType golden_dtype, const std::byte* golden,
                 uint64_t count, RelPrecision precision, PairSums* sums);

}  // namespace msprobe::compare::internal
