// Host-side statistics of one captured tensor for statistics mode (docs/capture.md A8.2 step 5): the
// columns of msprobe's statistic.csv (docs/kernel_dump.md §4.5 b). Max, Min, Avg and L2Norm are taken over
// the elements that are not NaN (so one NaN does not hide the range); NaN and ±Inf are counted.
#pragma once

#include <cstddef>
#include <cstdint>

namespace msprobe::capture {

struct SlotStats {
  bool has_values = false;  // false: dtype without a decoder, or no non-NaN element
  double max = 0, min = 0, mean = 0, l2norm = 0;
  uint64_t nan = 0, neg_inf = 0, pos_inf = 0;
};

// `proto_dtype` is an OutputDataType; `bytes` holds `size` bytes in little-endian element order.
SlotStats ComputeSlotStats(int32_t proto_dtype, const void* bytes, uint64_t size);

}  // namespace msprobe::capture
