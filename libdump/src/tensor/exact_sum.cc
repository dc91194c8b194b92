#include "tensor/exact_sum_internal.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace msprobe::internal {

void ExactSum::Add(double x) {
  const uint64_t bits = std::bit_cast<uint64_t>(x);
  const int exponent = static_cast<int>((bits >> 52) & 0x7ff);
  uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
  const bool negative = (bits >> 63) != 0;
  if (exponent == 0x7ff) {
    if (mantissa != 0) nan_ = true;
    else if (negative) neg_inf_ = true;
    else pos_inf_ = true;
    return;
  }
  if (exponent == 0 && mantissa == 0) return;
  // x = mantissa * 2^(position - 1074); the accumulator's unit is 2^-1074.
  int position = 0;
  if (exponent != 0) {
    mantissa |= uint64_t{1} << 52;
    position = exponent - 1;
  }
  const int digit = position >> 5;  // at most 63, so digit + 2 < kDigits
  const int shift = position & 31;
  const uint64_t low = mantissa << shift;  // mantissa < 2^53 and shift < 32: bits 0..63 of the product
  const uint64_t high = shift == 0 ? 0 : mantissa >> (64 - shift);
  const auto d0 = static_cast<int64_t>(low & 0xffffffffu);
  const auto d1 = static_cast<int64_t>(low >> 32);
  const auto d2 = static_cast<int64_t>(high);
  if (negative) {
    digits_[digit] -= d0;
    digits_[digit + 1] -= d1;
    digits_[digit + 2] -= d2;
  } else {
    digits_[digit] += d0;
    digits_[digit + 1] += d1;
    digits_[digit + 2] += d2;
  }
  if (++pending_ >= kMaxPending) Normalize();
}

void ExactSum::Normalize() {
  for (int i = 0; i + 1 < kDigits; ++i) {
    const int64_t carry = digits_[i] >> 32;  // floor division by 2^32 (arithmetic shift in C++20)
    digits_[i] &= 0xffffffff;
    digits_[i + 1] += carry;
  }
  pending_ = 1;  // every digit but the top one is now in [0, 2^32)
}

void ExactSum::Merge(const ExactSum& other) {
  if (pending_ + other.pending_ >= kMaxPending) Normalize();
  for (int i = 0; i < kDigits; ++i) digits_[i] += other.digits_[i];
  pending_ += other.pending_;
  if (pending_ >= kMaxPending) Normalize();
  nan_ |= other.nan_;
  pos_inf_ |= other.pos_inf_;
  neg_inf_ |= other.neg_inf_;
}

double ExactSum::Value() const {
  if (nan_ || (pos_inf_ && neg_inf_)) return std::numeric_limits<double>::quiet_NaN();
  if (pos_inf_) return std::numeric_limits<double>::infinity();
  if (neg_inf_) return -std::numeric_limits<double>::infinity();
  ExactSum sum = *this;
  sum.Normalize();
  const bool negative = sum.digits_[kDigits - 1] < 0;
  if (negative) {
    for (int64_t& d : sum.digits_) d = -d;
    sum.Normalize();
  }
  int top = kDigits - 1;
  while (top >= 0 && sum.digits_[top] == 0) --top;
  if (top < 0) return 0.0;
  // The top four digits (>= 97 significant bits) decide the double; lower ones only matter for ties.
  const int bottom = std::max(0, top - 3);
  long double value = 0;
  for (int i = top; i >= bottom; --i) value = value * 4294967296.0L + static_cast<long double>(sum.digits_[i]);
  const auto result = static_cast<double>(std::ldexp(value, 32 * bottom - 1074));
  return negative ? -result : result;
}

}  // namespace msprobe::internal
