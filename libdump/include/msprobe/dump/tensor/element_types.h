// C++ types for the elements of every DType, their decoding to double, and VisitDType: the one place a
// DType becomes a C++ type (docs/kernel_dump.md §2.1, §2.4). Kernels are templates on the element type.
#pragma once

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

#include "msprobe/dump/tensor/dtype.h"

namespace msprobe {

struct Float16 { uint16_t bits; };
struct BFloat16 { uint16_t bits; };
struct Complex32 { Float16 re, im; };
// One byte holding two int4 elements: element 2i is the low nibble, 2i+1 the high nibble.
struct Int4Pair { uint8_t bits; };
struct Float8E4M3FN { uint8_t bits; };
struct Float8E5M2 { uint8_t bits; };
struct Float8E4M3FNUZ { uint8_t bits; };
struct Float8E5M2FNUZ { uint8_t bits; };
struct Float8E8M0 { uint8_t bits; };
struct HiFloat8 { uint8_t bits; };

inline float BFloat16ToFloat(uint16_t bits) { return std::bit_cast<float>(uint32_t{bits} << 16); }

inline float Float16ToFloat(uint16_t h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  const uint32_t exp = (h >> 10) & 0x1f;
  const uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));  // inf / NaN
  if (exp != 0) return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
  // Zero or subnormal: man * 2^-24, exact in float.
  const float v = static_cast<float>(man) * 0x1p-24f;
  return sign ? -v : v;
}

// Generic minifloat with `e` exponent bits and `m` mantissa bits; IEEE-like subnormals.
inline double DecodeMinifloat(uint8_t bits, int e, int m, int bias) {
  const int exp = (bits >> m) & ((1 << e) - 1);
  const int man = bits & ((1 << m) - 1);
  const double mag = exp == 0 ? std::ldexp(man, 1 - bias - m) : std::ldexp((1 << m) + man, exp - bias - m);
  return (bits & 0x80) ? -mag : mag;
}

inline double ToDouble(bool v) { return v ? 1.0 : 0.0; }
inline double ToDouble(uint8_t v) { return v; }
inline double ToDouble(int8_t v) { return v; }
inline double ToDouble(int16_t v) { return v; }
inline double ToDouble(uint16_t v) { return v; }
inline double ToDouble(int32_t v) { return v; }
inline double ToDouble(uint32_t v) { return v; }
inline double ToDouble(int64_t v) { return static_cast<double>(v); }
inline double ToDouble(uint64_t v) { return static_cast<double>(v); }
inline double ToDouble(float v) { return v; }
inline double ToDouble(double v) { return v; }
inline double ToDouble(Float16 v) { return Float16ToFloat(v.bits); }
inline double ToDouble(BFloat16 v) { return BFloat16ToFloat(v.bits); }
// OCP FP8: E4M3FN has no infinities and NaN only at S.1111.111 (msaccucmp misses the NaN).
inline double ToDouble(Float8E4M3FN v) {
  if ((v.bits & 0x7f) == 0x7f) return std::numeric_limits<double>::quiet_NaN();
  return DecodeMinifloat(v.bits, 4, 3, 7);
}
inline double ToDouble(Float8E5M2 v) {
  if ((v.bits & 0x7c) == 0x7c) {
    if (v.bits & 0x03) return std::numeric_limits<double>::quiet_NaN();
    return (v.bits & 0x80) ? -INFINITY : INFINITY;  // msaccucmp returns +inf for both signs
  }
  return DecodeMinifloat(v.bits, 5, 2, 15);
}
// The "fnuz" kinds: no infinities, no negative zero, 0x80 is the only NaN, bias one higher.
inline double ToDouble(Float8E4M3FNUZ v) {
  return v.bits == 0x80 ? std::numeric_limits<double>::quiet_NaN() : DecodeMinifloat(v.bits, 4, 3, 8);
}
inline double ToDouble(Float8E5M2FNUZ v) {
  return v.bits == 0x80 ? std::numeric_limits<double>::quiet_NaN() : DecodeMinifloat(v.bits, 5, 2, 16);
}
// E8M0: a bare power of two, 0xff is NaN.
inline double ToDouble(Float8E8M0 v) {
  return v.bits == 0xff ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(1.0, int{v.bits} - 127);
}
double ToDouble(HiFloat8 v);  // tapered exponent, see dtype.cc

// Complex values decode to their modulus, as msprobe's statistics use abs() (docs/formats.md §1.4).
inline double ToDouble(std::complex<float> v) { return std::abs(v); }
inline double ToDouble(std::complex<double> v) { return std::abs(v); }
inline double ToDouble(Complex32 v) {
  return std::hypot(static_cast<double>(Float16ToFloat(v.re.bits)), static_cast<double>(Float16ToFloat(v.im.bits)));
}

template <class T>
struct TypeTag { using type = T; };

// Calls f(TypeTag<T>{}) with the element type of `t`. Int4 yields Int4Pair (two elements a byte).
template <class F>
decltype(auto) VisitDType(DType t, F&& f) {
  switch (t) {
    case DType::kBool: return f(TypeTag<bool>{});
    case DType::kU8: return f(TypeTag<uint8_t>{});
    case DType::kI8: return f(TypeTag<int8_t>{});
    case DType::kI16: return f(TypeTag<int16_t>{});
    case DType::kU16: return f(TypeTag<uint16_t>{});
    case DType::kI32: return f(TypeTag<int32_t>{});
    case DType::kU32: return f(TypeTag<uint32_t>{});
    case DType::kI64: return f(TypeTag<int64_t>{});
    case DType::kU64: return f(TypeTag<uint64_t>{});
    case DType::kF16: return f(TypeTag<Float16>{});
    case DType::kBF16: return f(TypeTag<BFloat16>{});
    case DType::kF32: return f(TypeTag<float>{});
    case DType::kF64: return f(TypeTag<double>{});
    case DType::kC32: return f(TypeTag<Complex32>{});
    case DType::kC64: return f(TypeTag<std::complex<float>>{});
    case DType::kC128: return f(TypeTag<std::complex<double>>{});
    case DType::kI4: return f(TypeTag<Int4Pair>{});
    case DType::kF8E4M3FN: return f(TypeTag<Float8E4M3FN>{});
    case DType::kF8E5M2: return f(TypeTag<Float8E5M2>{});
    case DType::kF8E4M3FNUZ: return f(TypeTag<Float8E4M3FNUZ>{});
    case DType::kF8E5M2FNUZ: return f(TypeTag<Float8E5M2FNUZ>{});
    case DType::kF8E8M0: return f(TypeTag<Float8E8M0>{});
    case DType::kHiF8: return f(TypeTag<HiFloat8>{});
  }
  __builtin_unreachable();  // every DType is listed above; -Wswitch keeps it so
}

// The i-th element of a native-order buffer of dtype `t`, as double (complex: modulus). Slow path for
// single values (0-d tensors, tests); kernels use VisitDType.
double ElementToDouble(DType t, const std::byte* data, uint64_t index);

}  // namespace msprobe
