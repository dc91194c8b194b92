// ExactSum: an order-independent exact sum of doubles, so statistics do not depend on window sizes,
// thread counts or runs.
#pragma once

#include <cstdint>

namespace msprobe::internal {

// An exact sum of doubles (a fixed-point "superaccumulator" over the whole double range, radix 2^32
// digits with deferred carries). Adding chunk sums into it makes the total independent of the order of
// Merge calls. Infinities and NaN are tracked as flags: NaN, or +inf and -inf together, give NaN.
class ExactSum {
 public:
  void Add(double x);
  void Merge(const ExactSum& other);
  // The exact sum rounded to double (faithfully; deterministic for a given exact value).
  double Value() const;

 private:
  static constexpr int kDigits = 68;                    // bits -1074 .. 1101 of the fixed-point value
  static constexpr uint32_t kMaxPending = 1u << 30;     // adds before a carry pass (digits stay < 2^63)
  void Normalize();

  int64_t digits_[kDigits] = {};
  uint32_t pending_ = 0;
  bool nan_ = false, pos_inf_ = false, neg_inf_ = false;
};

}  // namespace msprobe::internal
