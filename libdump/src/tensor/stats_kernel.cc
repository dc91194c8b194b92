// Serial statistics kernels. A window is walked in slabs of 8192 elements that stay in L1/L2, so the
// CRC and xor passes re-read cached bytes. f32, bf16 and f16 share one float kernel, built twice: generic
// (vector extensions) and AVX2+F16C (intrinsics, bf16 widened by a shift, f16 by vcvtph2ps), picked once
// at run time. Both use the same 8 lanes and no FMA, so they give the same bits. Other dtypes use a
// double kernel; float8 kinds are decoded through a 256-entry table into the float kernel.
#include "tensor/stats_kernel_internal.h"

#include <isa-l/crc.h>  // CRC-32 at 5x zlib's speed (11.7 against 2.1 GB/s on one core here)
#include <zlib.h>       // crc32_combine, which ISA-L lacks

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace msprobe::internal {

static_assert(std::endian::native == std::endian::little, "CRC and xor are defined on little-endian bytes");

namespace {

using Values = StatsAccumulator::Values;

// ---- lanes ---------------------------------------------------------------------------------------
// Every kernel keeps 8 lanes: lane k takes the elements i with i % 8 == k within a chunk, sums them in
// double, and the chunk's sum is SumLanes of the 8 lane sums plus the (< 8) tail elements summed in
// order. The generic kernels write this with vector extensions (two 4-wide units), the AVX2 ones with
// intrinsics; no FMA is used, so both give the same bits.

typedef float F4 __attribute__((vector_size(16)));
typedef int32_t I4 __attribute__((vector_size(16)));
typedef double D4 __attribute__((vector_size(32)));
typedef int64_t L4 __attribute__((vector_size(32)));

template <class S> struct VecOf;
template <> struct VecOf<float> {
  using V = F4;
  using M = I4;  // |bits| maxima and zero counters, as wide as V
  static constexpr int32_t kAbs = 0x7fffffff, kInfBits = 0x7f800000;
};
template <> struct VecOf<double> {
  using V = D4;
  using M = L4;
  static constexpr int64_t kAbs = 0x7fffffffffffffff, kInfBits = 0x7ff0000000000000;
};

constexpr int kLanes = 8;
constexpr uint64_t kSlab = 8192;  // elements per slab (a multiple of kStatsChunk); lane counters stay small
static_assert(kSlab % kStatsChunk == 0 && kStatsChunk % kLanes == 0);

// Fixed pairwise order over lanes 0..3 (a) and 4..7 (b).
inline double SumLanes(const double* a, const double* b) {
  return ((a[0] + b[0]) + (a[2] + b[2])) + ((a[1] + b[1]) + (a[3] + b[3]));
}

// The running values of a kernel call that are not per chunk.
template <class S>
struct RunTotals {
  double max = -std::numeric_limits<double>::infinity();
  double min = std::numeric_limits<double>::infinity();
  uint64_t zero = 0;
  bool nonfinite = false;
};

// Elements [i, end) one by one (the chunk's last < 8 elements); returns their sum and sum of squares.
template <class S, class Loader>
[[gnu::always_inline]] inline void ScalarTail(const Loader& loader, uint64_t i, uint64_t end, RunTotals<S>* totals,
                                              double* sum, double* sum_sq) {
  for (; i < end; ++i) {
    const S v = loader.Load1(i);
    const double d = v;
    *sum += d;
    *sum_sq += d * d;
    if (v > totals->max) totals->max = v;
    if (v < totals->min) totals->min = v;
    totals->nonfinite |= !std::isfinite(v);
    totals->zero += v == 0;
  }
}

// Adds a call's totals to `out`; when a NaN or infinity was seen, counts them element by element (rare).
template <class S, class Loader>
void FinishRun(const Loader& loader, uint64_t n, const RunTotals<S>& totals, Values* out) {
  out->max = std::max(out->max, totals.max);
  out->min = std::min(out->min, totals.min);
  out->zero += totals.zero;
  if (!totals.nonfinite) return;
  for (uint64_t i = 0; i < n; ++i) {
    const S v = loader.Load1(i);
    if (std::isnan(v)) ++out->nan;
    else if (v == std::numeric_limits<S>::infinity()) ++out->pos_inf;
    else if (v == -std::numeric_limits<S>::infinity()) ++out->neg_inf;
  }
}

// One 4-wide unit of the generic kernel.
template <class S>
struct Unit {
  using V = typename VecOf<S>::V;
  using M = typename VecOf<S>::M;
  V max = V{} - std::numeric_limits<S>::infinity();
  V min = V{} + std::numeric_limits<S>::infinity();
  M abs_max = {}, zero = {};
  D4 sum = {}, sum_sq = {};  // of the current chunk

  [[gnu::always_inline]] void Step(const V& v) {
    const D4 d = __builtin_convertvector(v, D4);
    sum += d;
    sum_sq += d * d;
    max = v > max ? v : max;  // NaN compares false and is skipped; NaN is decided by the count
    min = v < min ? v : min;
    M bits;
    std::memcpy(&bits, &v, sizeof bits);
    bits &= VecOf<S>::kAbs;
    abs_max = bits > abs_max ? bits : abs_max;  // >= kInfBits: an infinity or NaN was seen
    zero -= bits == 0;
  }
  void Flush(RunTotals<S>* totals) const {
    for (int k = 0; k < 4; ++k) {
      totals->max = std::max<double>(totals->max, max[k]);
      totals->min = std::min<double>(totals->min, min[k]);
      totals->zero += static_cast<uint64_t>(zero[k]);
      totals->nonfinite |= abs_max[k] >= VecOf<S>::kInfBits;
    }
  }
};

// Generic kernel: n elements (the first on a chunk boundary) decoded by `loader` (Load4 and Load1).
template <class S, class Loader>
[[gnu::always_inline]] inline void RunLanes(const Loader& loader, uint64_t n, Values* out) {
  using V = typename VecOf<S>::V;
  Unit<S> a, b;
  RunTotals<S> totals;
  for (uint64_t begin = 0; begin < n; begin += kStatsChunk) {
    const uint64_t end = std::min(n, begin + kStatsChunk);
    a.sum = a.sum_sq = b.sum = b.sum_sq = D4{};
    uint64_t i = begin;
    for (; i + kLanes <= end; i += kLanes) {
      V va, vb;
      loader.Load4(i, &va);
      loader.Load4(i + 4, &vb);
      a.Step(va);
      b.Step(vb);
    }
    double tail_sum = 0, tail_sum_sq = 0;
    ScalarTail(loader, i, end, &totals, &tail_sum, &tail_sum_sq);
    double sa[4], sb[4], qa[4], qb[4];
    std::memcpy(sa, &a.sum, sizeof sa);
    std::memcpy(sb, &b.sum, sizeof sb);
    std::memcpy(qa, &a.sum_sq, sizeof qa);
    std::memcpy(qb, &b.sum_sq, sizeof qb);
    out->sum.Add(SumLanes(sa, sb) + tail_sum);
    out->sum_sq.Add(SumLanes(qa, qb) + tail_sum_sq);
  }
  a.Flush(&totals);
  b.Flush(&totals);
  FinishRun(loader, n, totals, out);
}

// ---- float sources: f32, bf16 and f16 bytes, read as float ------------------------------------------

struct F32Source {
  const std::byte* p;
  [[gnu::always_inline]] float Load1(uint64_t i) const {
    float v;
    std::memcpy(&v, p + 4 * i, sizeof v);
    return v;
  }
  [[gnu::always_inline]] void Load4(uint64_t i, F4* v) const { std::memcpy(v, p + 4 * i, sizeof(F4)); }
#if defined(__x86_64__)
  [[gnu::target("avx2,f16c"), gnu::always_inline]] __m256 Load8(uint64_t i) const {
    return _mm256_loadu_ps(reinterpret_cast<const float*>(p + 4 * i));
  }
#endif
};

struct BF16Source {  // bf16 is the top half of a float: decoding is a shift
  const std::byte* p;
  [[gnu::always_inline]] float Load1(uint64_t i) const {
    uint16_t w;
    std::memcpy(&w, p + 2 * i, sizeof w);
    return std::bit_cast<float>(uint32_t{w} << 16);
  }
  [[gnu::always_inline]] void Load4(uint64_t i, F4* v) const {
    uint16_t w[4];
    std::memcpy(w, p + 2 * i, sizeof w);
    const I4 bits = {w[0] << 16, w[1] << 16, w[2] << 16, w[3] << 16};
    std::memcpy(v, &bits, sizeof bits);
  }
#if defined(__x86_64__)
  [[gnu::target("avx2,f16c"), gnu::always_inline]] __m256 Load8(uint64_t i) const {
    const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2 * i));
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(w), 16));
  }
#endif
};

struct F16Source {
  const std::byte* p;
  [[gnu::always_inline]] float Load1(uint64_t i) const {
    uint16_t h;
    std::memcpy(&h, p + 2 * i, sizeof h);
    return Float16ToFloat(h);
  }
  [[gnu::always_inline]] void Load4(uint64_t i, F4* v) const {
    for (int k = 0; k < 4; ++k) (*v)[k] = Load1(i + k);
  }
#if defined(__x86_64__)
  [[gnu::target("avx2,f16c"), gnu::always_inline]] __m256 Load8(uint64_t i) const {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2 * i)));
  }
#endif
};

using FloatKernelFn = void (*)(const std::byte*, uint64_t, Values*);

template <class Source>
void FloatKernelGeneric(const std::byte* p, uint64_t n, Values* out) {
  RunLanes<float>(Source{p}, n, out);
}

#if defined(__x86_64__)
// The same lanes as RunLanes<float>: lo = lanes 0..3, hi = lanes 4..7, separate mul and add.
template <class Source>
[[gnu::target("avx2,f16c")]] void FloatKernelAvx2(const std::byte* p, uint64_t n, Values* out) {
  const Source source{p};
  RunTotals<float> totals;
  __m256 max = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
  __m256 min = _mm256_set1_ps(std::numeric_limits<float>::infinity());
  __m256i abs_max = _mm256_setzero_si256(), zero = _mm256_setzero_si256();
  const __m256i abs_mask = _mm256_set1_epi32(0x7fffffff);
  for (uint64_t begin = 0; begin < n; begin += kStatsChunk) {
    const uint64_t end = std::min(n, begin + kStatsChunk);
    __m256d sum_lo = _mm256_setzero_pd(), sum_hi = _mm256_setzero_pd();
    __m256d sq_lo = _mm256_setzero_pd(), sq_hi = _mm256_setzero_pd();
    uint64_t i = begin;
    for (; i + kLanes <= end; i += kLanes) {
      const __m256 v = source.Load8(i);
      const __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(v));
      const __m256d hi = _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1));
      sum_lo = _mm256_add_pd(sum_lo, lo);
      sum_hi = _mm256_add_pd(sum_hi, hi);
      sq_lo = _mm256_add_pd(sq_lo, _mm256_mul_pd(lo, lo));
      sq_hi = _mm256_add_pd(sq_hi, _mm256_mul_pd(hi, hi));
      max = _mm256_max_ps(v, max);  // v > max ? v : max, as in Unit::Step
      min = _mm256_min_ps(v, min);
      const __m256i bits = _mm256_and_si256(_mm256_castps_si256(v), abs_mask);
      abs_max = _mm256_max_epi32(abs_max, bits);
      zero = _mm256_sub_epi32(zero, _mm256_cmpeq_epi32(bits, _mm256_setzero_si256()));
    }
    double tail_sum = 0, tail_sum_sq = 0;
    ScalarTail(source, i, end, &totals, &tail_sum, &tail_sum_sq);
    double sa[4], sb[4], qa[4], qb[4];
    _mm256_storeu_pd(sa, sum_lo);
    _mm256_storeu_pd(sb, sum_hi);
    _mm256_storeu_pd(qa, sq_lo);
    _mm256_storeu_pd(qb, sq_hi);
    out->sum.Add(SumLanes(sa, sb) + tail_sum);
    out->sum_sq.Add(SumLanes(qa, qb) + tail_sum_sq);
  }
  float mx[8], mn[8];
  int32_t am[8], zr[8];
  _mm256_storeu_ps(mx, max);
  _mm256_storeu_ps(mn, min);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(am), abs_max);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(zr), zero);
  for (int k = 0; k < 8; ++k) {
    totals.max = std::max<double>(totals.max, mx[k]);
    totals.min = std::min<double>(totals.min, mn[k]);
    totals.zero += static_cast<uint64_t>(zr[k]);
    totals.nonfinite |= am[k] >= 0x7f800000;
  }
  FinishRun(source, n, totals, out);
}

bool HasAvx2F16c() {
  static const bool has = [] {
    __builtin_cpu_init();
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;  // clang 14 has no "f16c" for __builtin_cpu_supports
    const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
    return __builtin_cpu_supports("avx2") && f16c;
  }();
  return has;
}
#endif

// The kernel for one float source, picked once: AVX2 where the CPU has it, else the generic build.
template <class Source>
FloatKernelFn FloatKernel() {
#if defined(__x86_64__)
  static const FloatKernelFn kernel = HasAvx2F16c() ? &FloatKernelAvx2<Source> : &FloatKernelGeneric<Source>;
  return kernel;
#else
  return &FloatKernelGeneric<Source>;
#endif
}

// ---- decoding into a float buffer (for crc32_f32, and float8 kinds) ------------------------------------

void DecodeBFloat16(const std::byte* p, uint64_t n, float* out) {
  for (uint64_t i = 0; i < n; ++i) out[i] = BF16Source{p}.Load1(i);
}

void DecodeFloat16(const std::byte* p, uint64_t n, float* out) {
  uint64_t i = 0;
#if defined(__x86_64__)
  if (HasAvx2F16c()) {  // F16C quiets signalling NaNs; the loop below does the same
    [&]() __attribute__((target("avx2,f16c"))) {
      for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, F16Source{p}.Load8(i));
    }();
  }
#endif
  for (; i < n; ++i) {
    uint16_t h;
    std::memcpy(&h, p + 2 * i, sizeof h);
    uint32_t bits = std::bit_cast<uint32_t>(Float16ToFloat(h));
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0) bits |= 0x00400000;
    out[i] = std::bit_cast<float>(bits);
  }
}

template <class T>
constexpr bool kIsFloat8 = std::is_same_v<T, Float8E4M3FN> || std::is_same_v<T, Float8E5M2> ||
                           std::is_same_v<T, Float8E4M3FNUZ> || std::is_same_v<T, Float8E5M2FNUZ> ||
                           std::is_same_v<T, Float8E8M0> || std::is_same_v<T, HiFloat8>;

// Every float8 value is exact in float (E8M0 spans 2^-127 .. 2^127).
template <class T>
const std::array<float, 256>& Float8Table() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> t{};
    for (int b = 0; b < 256; ++b) t[b] = static_cast<float>(ToDouble(T{static_cast<uint8_t>(b)}));
    return t;
  }();
  return table;
}

template <class T>
void DecodeFloat8(const std::byte* p, uint64_t n, float* out) {
  const std::array<float, 256>& table = Float8Table<T>();
  for (uint64_t i = 0; i < n; ++i) out[i] = table[static_cast<uint8_t>(p[i])];
}

// ---- the double kernel for every other dtype ------------------------------------------------------

template <class T>
struct DoubleSource {
  const std::byte* p;
  [[gnu::always_inline]] double Load1(uint64_t i) const {
    if constexpr (std::is_same_v<T, bool>) {
      return p[i] != std::byte{0} ? 1.0 : 0.0;  // read as a byte: a stored 2 is still "true"
    } else if constexpr (std::is_same_v<T, Int4Pair>) {
      const auto byte = static_cast<uint8_t>(p[i / 2]);
      const int nibble = (i % 2) ? byte >> 4 : byte & 0xf;
      return nibble >= 8 ? nibble - 16 : nibble;
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      float re_im[2];  // |z| in double, not std::abs's float: numpy's float64 abs is the reference
      std::memcpy(re_im, p + i * sizeof(T), sizeof re_im);
      return std::hypot(static_cast<double>(re_im[0]), static_cast<double>(re_im[1]));
    } else {
      T v;
      std::memcpy(&v, p + i * sizeof(T), sizeof(T));
      return ToDouble(v);
    }
  }
  [[gnu::always_inline]] void Load4(uint64_t i, D4* v) const {
    for (int k = 0; k < 4; ++k) (*v)[k] = Load1(i + k);
  }
};

// Summarises one slab; returns the slab's values as float32 when they were decoded into `buffer`.
const float* ConsumeSlab(DType dtype, const std::byte* p, uint64_t n, bool want_floats, float* buffer,
                         Values* out) {
  return VisitDType(dtype, [&](auto tag) -> const float* {
    using T = typename decltype(tag)::type;
    const auto* decoded = reinterpret_cast<const std::byte*>(buffer);
    if constexpr (std::is_same_v<T, float>) {
      FloatKernel<F32Source>()(p, n, out);
      return nullptr;
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      if (!want_floats) return FloatKernel<BF16Source>()(p, n, out), nullptr;
      DecodeBFloat16(p, n, buffer);
      FloatKernel<F32Source>()(decoded, n, out);
      return buffer;
    } else if constexpr (std::is_same_v<T, Float16>) {
      if (!want_floats) return FloatKernel<F16Source>()(p, n, out), nullptr;
      DecodeFloat16(p, n, buffer);
      FloatKernel<F32Source>()(decoded, n, out);
      return buffer;
    } else if constexpr (kIsFloat8<T>) {
      DecodeFloat8<T>(p, n, buffer);
      FloatKernel<F32Source>()(decoded, n, out);
      return buffer;
    } else {
      RunLanes<double>(DoubleSource<T>{p}, n, out);
      return nullptr;
    }
  });
}

bool WantsFloat32Crc(DType dtype, const StatsOptions& options) {
  return options.crc32_as_float32 && (dtype == DType::kBF16 || dtype == DType::kF16 || IsFloat8(dtype));
}

}  // namespace

// ---- StatsAccumulator ------------------------------------------------------------------------------

void StatsAccumulator::Consume(Bytes bytes, uint64_t count) {
  alignas(64) float buffer[kSlab];
  const bool f32_crc = WantsFloat32Crc(dtype_, options_);
  for (uint64_t first = 0; first < count; first += kSlab) {
    const uint64_t n = std::min(kSlab, count - first);
    // `first` is even, so ByteSize is exact at the slab start even for int4.
    const uint64_t begin = ByteSize(dtype_, first);
    const uint64_t end = std::min<uint64_t>(ByteSize(dtype_, first + n), bytes.size());
    const Bytes slab = bytes.subspan(begin, end - begin);
    const float* floats = ConsumeSlab(dtype_, slab.data(), n, f32_crc, buffer, &values_);
    const auto* data = reinterpret_cast<const unsigned char*>(slab.data());
    if (options_.crc32) crc32_ = crc32_gzip_refl(crc32_, data, slab.size());
    if (options_.xor64) xor64_ ^= XorWords(slab);  // slabs start on 8-byte boundaries of the tensor
    if (f32_crc && floats != nullptr) {
      crc32_f32_ = crc32_gzip_refl(crc32_f32_, reinterpret_cast<const unsigned char*>(floats), n * 4);
    }
  }
  count_ += count;
  bytes_ += bytes.size();
  if (f32_crc) f32_bytes_ += count * 4;
}

void StatsAccumulator::Merge(const StatsAccumulator& right) {
  values_.max = std::max(values_.max, right.values_.max);
  values_.min = std::min(values_.min, right.values_.min);
  values_.sum.Merge(right.values_.sum);
  values_.sum_sq.Merge(right.values_.sum_sq);
  values_.nan += right.values_.nan;
  values_.pos_inf += right.values_.pos_inf;
  values_.neg_inf += right.values_.neg_inf;
  values_.zero += right.values_.zero;
  crc32_ = static_cast<uint32_t>(crc32_combine(crc32_, right.crc32_, static_cast<z_off_t>(right.bytes_)));
  crc32_f32_ =
      static_cast<uint32_t>(crc32_combine(crc32_f32_, right.crc32_f32_, static_cast<z_off_t>(right.f32_bytes_)));
  xor64_ ^= right.xor64_;
  count_ += right.count_;
  bytes_ += right.bytes_;
  f32_bytes_ += right.f32_bytes_;
}

TensorStats StatsAccumulator::Finalize() const {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  TensorStats s;
  s.dtype = dtype_;
  s.numel = count_;
  s.has_values = count_ > 0;
  s.nan_count = values_.nan;
  s.pos_inf_count = values_.pos_inf;
  s.neg_inf_count = values_.neg_inf;
  s.zero_count = values_.zero;
  s.crc32 = options_.crc32 ? crc32_ : 0;
  s.crc32_f32 = WantsFloat32Crc(dtype_, options_) ? crc32_f32_ : 0;
  s.xor64 = options_.xor64 ? xor64_ : 0;
  if (count_ == 0 || values_.nan > 0) {
    s.max = s.min = s.mean = s.norm = kNaN;
  } else {
    s.max = values_.max;
    s.min = values_.min;
    s.mean = values_.sum.Value() / static_cast<double>(count_);
    s.norm = std::sqrt(values_.sum_sq.Value());
  }
  return s;
}

// ---- helpers -----------------------------------------------------------------------------------------

uint64_t XorWords(Bytes bytes) {
  const std::byte* p = bytes.data();
  const size_t n = bytes.size();
  uint64_t acc[4] = {};
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    uint64_t w[4];
    std::memcpy(w, p + i, sizeof w);
    for (int k = 0; k < 4; ++k) acc[k] ^= w[k];
  }
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, sizeof w);
    acc[0] ^= w;
  }
  if (i < n) {  // msprobe pads the last word with zero bytes
    uint64_t w = 0;
    std::memcpy(&w, p + i, n - i);
    acc[0] ^= w;
  }
  return acc[0] ^ acc[1] ^ acc[2] ^ acc[3];
}

uint64_t WindowElements(DType dtype, uint64_t window_bytes) {
  const uint64_t capped = std::min<uint64_t>(window_bytes, uint64_t{1} << 50);
  const uint64_t elements = capped * 8 / Info(dtype).bits / kStatsChunk * kStatsChunk;
  return std::max(elements, kStatsChunk);
}

}  // namespace msprobe::internal
