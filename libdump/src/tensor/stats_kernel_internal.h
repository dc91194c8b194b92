// The serial statistics kernel behind ComputeStats: an accumulator that consumes consecutive runs of
// elements (Consume), joins with the accumulator of the run that follows (Merge) and produces a
// TensorStats (Finalize). parallel_stats.cc is the only place that runs it on several threads.
#pragma once

#include <cstdint>
#include <limits>

#include "tensor/exact_sum_internal.h"
#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/tensor/dtype.h"
#include "msprobe/dump/tensor/element_types.h"
#include "msprobe/dump/tensor/tensor_stats.h"

namespace msprobe::internal {

// Elements are summed in chunks of this many, aligned at multiples of it from element 0 of the tensor.
// Every Consume starts on a chunk boundary, so the chunk sums, and hence the results, do not depend on
// how the tensor was cut into windows. 512 elements are 64 * bits bytes: a multiple of 8 bytes (the xor
// words) and an even count (int4 pairs) for every dtype.
inline constexpr uint64_t kStatsChunk = 512;

// The type in which a chunk's values are summed: double for every element type (msprobe's own values come
// from torch float32 / own-dtype reductions; ours are more accurate and documented as such).
template <class T>
struct AccumulatorOf { using type = double; };

// The type in which max/min are kept and values compared: float where that is exact and twice as wide
// a vector (f32, f16, bf16, float8 kinds), double otherwise.
template <class T>
struct DecodedOf { using type = double; };
template <> struct DecodedOf<float> { using type = float; };
template <> struct DecodedOf<Float16> { using type = float; };
template <> struct DecodedOf<BFloat16> { using type = float; };

class StatsAccumulator {
 public:
  StatsAccumulator(DType dtype, const StatsOptions& options) : dtype_(dtype), options_(options) {}

  // Consumes the `count` elements in `bytes` (native byte order, as TensorSource::Read hands them out).
  // REQUIRES: they directly follow the elements consumed so far, which are a multiple of kStatsChunk;
  // bytes.size() == ByteSize(dtype, count).
  void Consume(Bytes bytes, uint64_t count);
  // Appends the run summarised by `right`, which must directly follow this one.
  void Merge(const StatsAccumulator& right);
  TensorStats Finalize() const;

  uint64_t count() const { return count_; }

  // Per-kernel running values, filled by the typed kernels in stats_kernel.cc.
  struct Values {
    double max = -std::numeric_limits<double>::infinity();  // over non-NaN values
    double min = std::numeric_limits<double>::infinity();
    ExactSum sum, sum_sq;
    uint64_t nan = 0, pos_inf = 0, neg_inf = 0, zero = 0;
  };

 private:
  DType dtype_;
  StatsOptions options_;
  uint64_t count_ = 0;
  Values values_;
  uint32_t crc32_ = 0, crc32_f32_ = 0;
  uint64_t bytes_ = 0, f32_bytes_ = 0;  // lengths behind the CRCs, for crc32_combine
  uint64_t xor64_ = 0;
};

// XOR of the little-endian 64-bit words of `bytes`, the last one zero-padded.
uint64_t XorWords(Bytes bytes);

// The window size in elements for `window_bytes`: whole chunks, at least one.
uint64_t WindowElements(DType dtype, uint64_t window_bytes);

}  // namespace msprobe::internal
