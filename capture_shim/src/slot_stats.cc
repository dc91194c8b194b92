// Statistics kernels over the host copy of a tensor.
#include "slot_stats.h"

#include <cmath>
#include <cstring>

namespace msprobe::capture {
namespace {

float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000 | (mant << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {  // subnormal: normalise
    exp = 113;
    while ((mant & 0x400) == 0) {
      mant <<= 1;
      --exp;
    }
    bits = sign | (exp << 23) | ((mant & 0x3ff) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

float Bf16ToFloat(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

class Accumulator {
 public:
  void Add(double v) {
    if (std::isnan(v)) { ++s_.nan; return; }
    if (std::isinf(v)) ++(v > 0 ? s_.pos_inf : s_.neg_inf);
    if (count_ == 0 || v > s_.max) s_.max = v;
    if (count_ == 0 || v < s_.min) s_.min = v;
    sum_ += v;
    sq_ += v * v;
    ++count_;
  }
  SlotStats Finish() {
    if (count_ > 0) {
      s_.has_values = true;
      s_.mean = sum_ / static_cast<double>(count_);
      s_.l2norm = std::sqrt(sq_);
    }
    return s_;
  }

 private:
  SlotStats s_;
  uint64_t count_ = 0;
  double sum_ = 0, sq_ = 0;
};

template <class T, class Decode>
SlotStats Reduce(const void* bytes, uint64_t size, Decode decode) {
  Accumulator acc;
  const auto* p = static_cast<const unsigned char*>(bytes);
  for (uint64_t i = 0; i + sizeof(T) <= size; i += sizeof(T)) {
    T raw;
    std::memcpy(&raw, p + i, sizeof(T));
    acc.Add(decode(raw));
  }
  return acc.Finish();
}

template <class T>
SlotStats ReducePlain(const void* bytes, uint64_t size) {
  return Reduce<T>(bytes, size, [](T v) { return static_cast<double>(v); });
}

}  // namespace

SlotStats ComputeSlotStats(int32_t proto_dtype, const void* bytes, uint64_t size) {
  switch (proto_dtype) {
    case 1: return ReducePlain<float>(bytes, size);
    case 2: return Reduce<uint16_t>(bytes, size, [](uint16_t v) { return static_cast<double>(HalfToFloat(v)); });
    case 27: return Reduce<uint16_t>(bytes, size, [](uint16_t v) { return static_cast<double>(Bf16ToFloat(v)); });
    case 12: return ReducePlain<double>(bytes, size);
    case 3: return ReducePlain<int8_t>(bytes, size);
    case 4: case 11: return ReducePlain<uint8_t>(bytes, size);
    case 5: return ReducePlain<int16_t>(bytes, size);
    case 6: return ReducePlain<uint16_t>(bytes, size);
    case 7: return ReducePlain<int32_t>(bytes, size);
    case 9: return ReducePlain<uint32_t>(bytes, size);
    case 8: return ReducePlain<int64_t>(bytes, size);
    case 10: return ReducePlain<uint64_t>(bytes, size);
    default: return SlotStats{};
  }
}

}  // namespace msprobe::capture
