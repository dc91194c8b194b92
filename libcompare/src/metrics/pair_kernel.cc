// Pair kernel: each block of up to kBlock elements is decoded into two T buffers (float or double),
// then walked 8 lanes at a time with GCC vector extensions (the compiler maps them to SSE or AVX).
// Lane k of a block sums the elements with index % 8 == k; the lanes are joined in a fixed order and
// the block sums go into double-double accumulators.
#include "metrics/pair_kernel_internal.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <complex>
#include <cstring>
#include <limits>

#include "msprobe/compare/metrics/thresholds.h"
#include "msprobe/dump/tensor/element_types.h"

namespace msprobe::compare::internal {
namespace {

typedef double D8 __attribute__((vector_size(64)));
typedef int64_t L8 __attribute__((vector_size(64)));
typedef float F8 __attribute__((vector_size(32)));
typedef int32_t I8 __attribute__((vector_size(32)));

template <class T> struct Lanes;
template <> struct Lanes<float> {
  using V = F8;
  using M = I8;
  static constexpr int32_t kAbs = 0x7fffffff, kInf = 0x7f800000;
};
template <> struct Lanes<double> {
  using V = D8;
  using M = L8;
  static constexpr int64_t kAbs = 0x7fffffffffffffff, kInf = 0x7ff0000000000000;
};

// The value numpy holds for an element once msprobe has made it an ndarray: bf16/float8 as float32
// (docs/compare.md §6), complex as its real part (astype(float) drops the imaginary part).
template <class T, class E>
inline T Decode(const E& e) {
  if constexpr (std::is_same_v<E, float> || std::is_same_v<E, double>) return static_cast<T>(e);
  else if constexpr (std::is_same_v<E, BFloat16>) return static_cast<T>(BFloat16ToFloat(e.bits));
  else if constexpr (std::is_same_v<E, Float16>) return static_cast<T>(Float16ToFloat(e.bits));
  else if constexpr (std::is_same_v<E, std::complex<float>> || std::is_same_v<E, std::complex<double>>) {
    return static_cast<T>(e.real());
  } else if constexpr (std::is_same_v<E, Complex32>) return static_cast<T>(Float16ToFloat(e.re.bits));
  else if constexpr (std::is_integral_v<E>) return static_cast<T>(e);
  else return static_cast<T>(ToDouble(e));  // float8 kinds
}

template <class T>
void DecodeInto(DType dtype, const std::byte* src, uint64_t n, T* out) {
  if (dtype == DType::kBool) {  // read bytes, not bool objects: any non-zero byte is True
    for (uint64_t i = 0; i < n; ++i) out[i] = src[i] != std::byte{0} ? T{1} : T{0};
    return;
  }
  VisitDType(dtype, [&](auto tag) {
    using E = typename decltype(tag)::type;
    if constexpr (std::is_same_v<E, Int4Pair> || std::is_same_v<E, bool>) {
      std::fill(out, out + n, T{0});  // not reached: int4 is refused, bool handled above
    } else if constexpr (std::is_same_v<E, T>) {
      std::memcpy(out, src, n * sizeof(T));
    } else {
      for (uint64_t i = 0; i < n; ++i) {
        E e;
        std::memcpy(&e, src + i * sizeof(E), sizeof(E));
        out[i] = Decode<T>(e);
      }
    }
  });
}

inline double SumLanes(const double* v) { return ((v[0] + v[4]) + (v[2] + v[6])) + ((v[1] + v[5]) + (v[3] + v[7])); }

// One block: `n` is a multiple of 8; padded elements are zeros on both sides. Inlined into the generic
// and the AVX2 copies of Consume below, so each is compiled for its own instruction set.
template <class T>
[[gnu::always_inline]] inline void BlockKernel(const T* target, const T* golden, uint64_t n, uint64_t padding,
                                               PairSums* sums) {
  using V = typename Lanes<T>::V;
  using M = typename Lanes<T>::M;
  D8 dot{}, target_sq{}, golden_sq{}, diff_sq{}, max_abs{};
  V max_rel{};
  M below1{}, below5{}, class_diff{};
  const V eps = V{} + kRelativeEps<T>;
  // The ratio thresholds compare in T: rounded to float32 for float32 data (§4.2 table).
  const V thousandth = V{} + static_cast<T>(kOneThousandthRatio);
  const V five_thousandths = V{} + static_cast<T>(kFiveThousandthsRatio);
  const L8 abs64 = L8{} + 0x7fffffffffffffff;
  for (uint64_t i = 0; i < n; i += 8) {
    V x, y;
    std::memcpy(&x, target + i, sizeof(V));
    std::memcpy(&y, golden + i, sizeof(V));
    const M xb = (M)x & Lanes<T>::kAbs, yb = (M)y & Lanes<T>::kAbs;
    const M x_bad = xb >= Lanes<T>::kInf, y_bad = yb >= Lanes<T>::kInf;  // NaN or ±Inf: -1
    const M x_nan = xb > Lanes<T>::kInf, y_nan = yb > Lanes<T>::kInf;
    class_diff |= (x_bad ^ y_bad) | (x_nan ^ y_nan);  // +inf vs -inf is no difference (§4.2 step 4)
    M xm = (M)x & ~x_bad, ym = (M)y & ~y_bad;  // zeroed
    x = (V)xm;
    y = (V)ym;

    const D8 dx = __builtin_convertvector(x, D8), dy = __builtin_convertvector(y, D8);
    dot += dx * dy;
    target_sq += dx * dx;
    golden_sq += dy * dy;
    D8 d = dx - dy;
    diff_sq += d * d;
    L8 ad_bits = (L8)d & abs64;
    const D8 ad = (D8)ad_bits;
    max_abs = ad > max_abs ? ad : max_abs;

    // RE in T: eps added to both sides where golden == 0 (§4.2 step 6.3).
    M e_bits = (M)eps & (y == 0);
    const V e = (V)e_bits;
    const V xe = x + e, ye = y + e;
    V re = (xe - ye) / ye;
    M re_bits = (M)re & Lanes<T>::kAbs;
    re = (V)re_bits;
    max_rel = re > max_rel ? re : max_rel;
    below1 -= re < thousandth;
    below5 -= re < five_thousandths;
  }
  double lanes[8];
  auto add = [&lanes](const D8& v, DoubleDouble* to) {
    std::memcpy(lanes, &v, sizeof(lanes));
    to->Add(SumLanes(lanes));
  };
  add(dot, &sums->dot);
  add(target_sq, &sums->target_sq);
  add(golden_sq, &sums->golden_sq);
  add(diff_sq, &sums->diff_sq);
  for (int k = 0; k < 8; ++k) {
    sums->max_abs = std::max(sums->max_abs, max_abs[k]);
    sums->max_rel = std::max(sums->max_rel, static_cast<double>(max_rel[k]));
    sums->below_thousandth += static_cast<uint64_t>(below1[k]);
    sums->below_five_thousandths += static_cast<uint64_t>(below5[k]);
    if (class_diff[k] != 0) sums->mask_mismatch = true;
  }
  // Padding zeros have RE 0 and count as below both thresholds.
  sums->below_thousandth -= padding;
  sums->below_five_thousandths -= padding;
}

// The common dtypes decoded inline (so the AVX2 copy vectorizes them), the rest through VisitDType.
template <class T>
[[gnu::always_inline]] inline void DecodeFast(DType dtype, const std::byte* src, uint64_t n, T* out) {
  if (dtype == DType::kBF16) {
    for (uint64_t i = 0; i < n; ++i) {
      uint16_t word;
      std::memcpy(&word, src + 2 * i, 2);
      out[i] = static_cast<T>(std::bit_cast<float>(uint32_t{word} << 16));
    }
  } else if (dtype == DType::kF32) {
    if constexpr (std::is_same_v<T, float>) {
      std::memcpy(out, src, n * sizeof(float));
    } else {
      for (uint64_t i = 0; i < n; ++i) {
        float v;
        std::memcpy(&v, src + 4 * i, 4);
        out[i] = v;
      }
    }
  } else {
    DecodeInto(dtype, src, n, out);
  }
}

// The block's elements as T: read where they lie when the file already holds T, aligned as a T (torch
// and numpy align their data; a crafted file need not), and the block is whole lanes; else decoded
// into `buffer`.
template <class T>
[[gnu::always_inline]] inline const T* Decoded(DType dtype, const std::byte* src, uint64_t n, T* buffer) {
  const DType same = std::is_same_v<T, float> ? DType::kF32 : DType::kF64;
  if (dtype == same && n % 8 == 0 && reinterpret_cast<uintptr_t>(src) % alignof(T) == 0) {
    return reinterpret_cast<const T*>(src);
  }
  DecodeFast(dtype, src, n, buffer);
  return buffer;
}

template <class T>
[[gnu::always_inline]] inline void Consume(DType target_dtype, const std::byte* target, DType golden_dtype,
                                           const std::byte* golden, uint64_t count, PairSums* sums) {
  alignas(64) T a[kBlock];
  alignas(64) T b[kBlock];
  const uint64_t target_item = Info(target_dtype).bits / 8, golden_item = Info(golden_dtype).bits / 8;
  for (uint64_t first = 0; first < count; first += kBlock) {
    const uint64_t n = std::min(kBlock, count - first);
    const uint64_t padded = (n + 7) / 8 * 8;
    const T* x = Decoded(target_dtype, target + first * target_item, n, a);
    const T* y = Decoded(golden_dtype, golden + first * golden_item, n, b);
    if (padded != n) {  // only a block that ends mid-lane was decoded into a and b, with room for zeros
      for (uint64_t i = n; i < padded; ++i) a[i] = b[i] = T{0};
    }
    BlockKernel(x, y, padded, padded - n, sums);
  }
}

// One copy per instruction set; no FMA in any (and -std=c++20 keeps GCC from contracting), so all
// give the same bits.
void ConsumeFloat(DType nd, const std::byte* n, DType bd, const std::byte* b, uint64_t count, PairSums* sums) {
  Consume<float>(nd, n, bd, b, count, sums);
}
void ConsumeDouble(DType nd, const std::byte* n, DType bd, const std::byte* b, uint64_t count, PairSums* sums) {
  Consume<double>(nd, n, bd, b, count, sums);
}
#if defined(__x86_64__)
[[gnu::target("avx2")]] void ConsumeFloatAvx2(DType nd, const std::byte* n, DType bd, const std::byte* b,
                                              uint64_t count, PairSums* sums) {
  Consume<float>(nd, n, bd, b, count, sums);
}
[[gnu::target("avx2")]] void ConsumeDoubleAvx2(DType nd, const std::byte* n, DType bd, const std::byte* b,
                                               uint64_t count, PairSums* sums) {
  Consume<double>(nd, n, bd, b, count, sums);
}
// With AVX-512 the 8 double lanes are one register and there are 32 of them: the AVX2 copy spills its
// accumulators to the stack on every step, this one keeps them in registers.
[[gnu::target("avx512f,avx512vl,avx512dq,avx512bw")]] void ConsumeFloatAvx512(DType nd, const std::byte* n, DType bd,
                                                                            const std::byte* b, uint64_t count,
                                                                            PairSums* sums) {
  Consume<float>(nd, n, bd, b, count, sums);
}
[[gnu::target("avx512f,avx512vl,avx512dq,avx512bw")]] void ConsumeDoubleAvx512(DType nd, const std::byte* n, DType bd,
                                                                             const std::byte* b, uint64_t count,
                                                                             PairSums* sums) {
  Consume<double>(nd, n, bd, b, count, sums);
}
bool HasAvx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
bool HasAvx512() {
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                          __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
  return has;
}
#endif

bool IsNarrowFloat(DType t) {
  return t == DType::kF16 || t == DType::kBF16 || t == DType::kF32 || IsFloat8(t);
}

}  // namespace

void DoubleDouble::Add(double x) {
  const double s = hi + x;
  if (!std::isfinite(s)) {  // overflow or NaN: the error term means nothing any more
    hi = s;
    return;
  }
  const double bp = s - hi;
  lo += (hi - (s - bp)) + (x - bp);
  hi = s;
}

double DoubleDouble::Value() const { return std::isfinite(hi) ? hi + lo : hi; }

RelPrecision RelPrecisionOf(DType target, DType golden) {
  return IsNarrowFloat(target) && IsNarrowFloat(golden) ? RelPrecision::kFloat32 : RelPrecision::kFloat64;
}

bool KernelSupports(DType dtype) { return dtype != DType::kI4; }

void PairSums::Merge(const PairSums& other) {
  dot.Add(other.dot);
  target_sq.Add(other.target_sq);
  golden_sq.Add(other.golden_sq);
  diff_sq.Add(other.diff_sq);
  max_abs = std::max(max_abs, other.max_abs);
  max_rel = std::max(max_rel, other.max_rel);
  below_thousandth += other.below_thousandth;
  below_five_thousandths += other.below_five_thousandths;
  mask_mismatch = mask_mismatch || other.mask_mismatch;
}

void ConsumePair(DType target_dtype, const std::byte* target, DType golden_dtype, const std::byte* golden,
                 uint64_t count, RelPrecision precision, PairSums* sums) {
  const bool f32 = precision == RelPrecision::kFloat32;
#if defined(__x86_64__)
  if (HasAvx512()) {
    if (f32) ConsumeFloatAvx512(target_dtype, target, golden_dtype, golden, count, sums);
    else ConsumeDoubleAvx512(target_dtype, target, golden_dtype, golden, count, sums);
    return;
  }
  if (HasAvx2()) {
    if (f32) ConsumeFloatAvx2(target_dtype, target, golden_dtype, golden, count, sums);
    else ConsumeDoubleAvx2(target_dtype, target, golden_dtype, golden, count, sums);
    return;
  }
#endif
  if (f32) ConsumeFloat(target_dtype, target, golden_dtype, golden, count, sums);
  else ConsumeDouble(target_dtype, target, golden_dtype, golden, count, sums);
}

}  // namespace msprobe::compare::internal
