#include "msprobe/dump/tensor/element_types.h"

#include <cstring>

namespace msprobe {

// HiFloat8 (docs/kernel_dump.md §2.4): after the sign, a prefix ("dot") gives the exponent width D:
// 11→4, 10→3, 01→2, 001→1, 0001→0, 0000→denormal. The D-bit exponent is sign-magnitude with an
// implicit leading one, ±(2^(D-1) + magnitude); the rest is mantissa. msaccucmp's mantissa width for
// D=1 and D=0 overruns the 7-bit field; here the mantissa is whatever bits remain (3).
double ToDouble(HiFloat8 v) {
  const uint8_t b = v.bits;
  if (b == 0x00) return 0.0;
  if (b == 0x80) return std::numeric_limits<double>::quiet_NaN();
  const bool negative = b & 0x80;
  if ((b & 0x7f) == 0x6f) return negative ? -INFINITY : INFINITY;
  const int body = b & 0x7f;
  int dot_bits, d;
  if (body >> 5 == 0b11) { dot_bits = 2; d = 4; }
  else if (body >> 5 == 0b10) { dot_bits = 2; d = 3; }
  else if (body >> 5 == 0b01) { dot_bits = 2; d = 2; }
  else if (body >> 4 == 0b001) { dot_bits = 3; d = 1; }
  else if (body >> 3 == 0b0001) { dot_bits = 4; d = 0; }
  else {  // 0000mmm: denormal 2^(m-23)
    const double mag = std::ldexp(1.0, (body & 7) - 23);
    return negative ? -mag : mag;
  }
  const int man_bits = 7 - dot_bits - d;
  const int man = body & ((1 << man_bits) - 1);
  int exponent = 0;
  if (d > 0) {
    const int field = (body >> man_bits) & ((1 << d) - 1);
    const int magnitude = (1 << (d - 1)) + (field & ((1 << (d - 1)) - 1));
    exponent = (field >> (d - 1)) ? -magnitude : magnitude;
  }
  const double mag = std::ldexp(1.0 + std::ldexp(man, -man_bits), exponent);
  return negative ? -mag : mag;
}

double ElementToDouble(DType t, const std::byte* data, uint64_t index) {
  return VisitDType(t, [&](auto tag) -> double {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, Int4Pair>) {
      const auto byte = static_cast<uint8_t>(data[index / 2]);
      const int nibble = (index % 2) ? byte >> 4 : byte & 0xf;
      return nibble >= 8 ? nibble - 16 : nibble;  // sign-extend bit 3
    } else {
      T v;
      std::memcpy(&v, data + index * sizeof(T), sizeof(T));
      return ToDouble(v);
    }
  });
}

}  // namespace msprobe
