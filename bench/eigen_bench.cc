// The hand-written pair and statistics kernels against their shortest Eigen formulations, on 16M-element
// float32 and bfloat16 tensors, one thread, data in memory (docs/architecture.md, "Where Eigen is used
// and where not"). Before timing, each Eigen result is checked bit for bit against the kernel's; a
// mismatch is reported as the benchmark's error.
// Usage: eigen_bench [--benchmark_repetitions=N ...] (Google Benchmark flags)
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "bench_main.h"
#include "metrics/pair_kernel_internal.h"
#include "msprobe/compare/metrics/thresholds.h"
#include "tensor/stats_kernel_internal.h"

namespace msprobe {
namespace {

constexpr uint64_t kElements = uint64_t{16} << 20;

// Side 0: N(0, 1) values with every 97th a zero; side 1: side 0 times (1 + up to 1e-3). bf16 is
// float32 truncated.
struct Data {
  std::vector<float> f32[2];
  std::vector<uint16_t> bf16[2];
  Data() {
    bench::NormalValues normal(42);
    for (auto& side : f32) side.resize(kElements);
    for (uint64_t i = 0; i < kElements; ++i) {
      const float v = i % 97 == 0 ? 0.0f : normal.Next();
      f32[0][i] = v;
      f32[1][i] = v * (1.0f + 1e-3f * static_cast<float>(i % 251) / 250.0f);
    }
    for (int s = 0; s < 2; ++s) {
      bf16[s].resize(kElements);
      for (uint64_t i = 0; i < kElements; ++i) bf16[s][i] = static_cast<uint16_t>(std::bit_cast<uint32_t>(f32[s][i]) >> 16);
    }
  }
  const std::byte* Bytes(DType dtype, int side) const {
    return dtype == DType::kF32 ? reinterpret_cast<const std::byte*>(f32[side].data())
                                : reinterpret_cast<const std::byte*>(bf16[side].data());
  }
};

const Data& TheData() {
  static const Data data;
  return data;
}

// ---- pair kernel --------------------------------------------------------------------------------------

using compare::kFiveThousandthsRatio;
using compare::kOneThousandthRatio;
using compare::kRelativeEps;
using compare::internal::PairSums;
using compare::internal::kBlock;
using BlockF = Eigen::Array<float, Eigen::Dynamic, 1, 0, kBlock, 1>;  // on the stack, no allocation
using BlockD = Eigen::Array<double, Eigen::Dynamic, 1, 0, kBlock, 1>;

// §4.2 step 6 over one block of float32 values, as Eigen expressions (docs/compare.md).
void EigenPairBlock(const BlockF& xs, const BlockF& ys, PairSums* sums) {
  const auto x_ok = xs.isFinite(), y_ok = ys.isFinite();
  if ((x_ok != y_ok).any() || (xs.isNaN() != ys.isNaN()).any()) sums->mask_mismatch = true;
  const BlockF x = x_ok.select(xs, 0.0f), y = y_ok.select(ys, 0.0f);
  const BlockD dx = x.cast<double>(), dy = y.cast<double>();
  sums->dot.Add((dx * dy).sum());
  sums->target_sq.Add(dx.square().sum());
  sums->golden_sq.Add(dy.square().sum());
  sums->diff_sq.Add((dx - dy).square().sum());
  sums->max_abs = std::max(sums->max_abs, (dx - dy).abs().maxCoeff());
  const BlockF e = (y == 0.0f).select(BlockF::Constant(x.size(), kRelativeEps<float>), 0.0f);
  const BlockF re = (((x + e) - (y + e)) / (y + e)).abs();
  sums->max_rel = std::max<double>(sums->max_rel, re.maxCoeff());
  sums->below_thousandth += static_cast<uint64_t>((re < static_cast<float>(kOneThousandthRatio)).count());
  sums->below_five_thousandths += static_cast<uint64_t>((re < static_cast<float>(kFiveThousandthsRatio)).count());
}

// Eigen decodes bf16 itself (Eigen::bfloat16 → float).
BlockF EigenDecode(DType dtype, const std::byte* p, uint64_t n) {
  if (dtype == DType::kF32) return Eigen::Map<const Eigen::ArrayXf>(reinterpret_cast<const float*>(p), n);
  return Eigen::Map<const Eigen::Array<Eigen::bfloat16, Eigen::Dynamic, 1>>(reinterpret_cast<const Eigen::bfloat16*>(p), n)
      .cast<float>();
}

PairSums EigenPair(DType dtype, const std::byte* target, const std::byte* golden, uint64_t count) {
  PairSums sums;
  const uint64_t item = Info(dtype).bits / 8;
  for (uint64_t first = 0; first < count; first += kBlock) {
    const uint64_t n = std::min(kBlock, count - first);
    EigenPairBlock(EigenDecode(dtype, target + first * item, n), EigenDecode(dtype, golden + first * item, n), &sums);
  }
  return sums;
}

PairSums KernelPair(DType dtype, const std::byte* target, const std::byte* golden, uint64_t count) {
  PairSums sums;
  compare::internal::ConsumePair(dtype, target, dtype, golden, count, compare::internal::RelPrecision::kFloat32, &sums);
  return sums;
}

std::string PairDifference(const PairSums& a, const PairSums& b) {
  std::string out;
  auto check = [&out](const char* name, double x, double y) {
    if (std::bit_cast<uint64_t>(x) != std::bit_cast<uint64_t>(y)) out += std::string(name) + " ";
  };
  check("dot", a.dot.Value(), b.dot.Value());
  check("target_sq", a.target_sq.Value(), b.target_sq.Value());
  check("golden_sq", a.golden_sq.Value(), b.golden_sq.Value());
  check("diff_sq", a.diff_sq.Value(), b.diff_sq.Value());
  check("max_abs", a.max_abs, b.max_abs);
  check("max_rel", a.max_rel, b.max_rel);
  if (a.below_thousandth != b.below_thousandth || a.below_five_thousandths != b.below_five_thousandths) out += "counts ";
  return out;
}

template <bool kEigen>
void BM_Pair(benchmark::State& state) {
  const DType dtype = state.range(0) == 32 ? DType::kF32 : DType::kBF16;
  const Data& d = TheData();
  const std::string diff = PairDifference(EigenPair(dtype, d.Bytes(dtype, 0), d.Bytes(dtype, 1), kElements),
                                          KernelPair(dtype, d.Bytes(dtype, 0), d.Bytes(dtype, 1), kElements));
  if (!diff.empty()) state.SetLabel("results differ: " + diff);
  for (auto _ : state) {
    const PairSums sums = kEigen ? EigenPair(dtype, d.Bytes(dtype, 0), d.Bytes(dtype, 1), kElements)
                                 : KernelPair(dtype, d.Bytes(dtype, 0), d.Bytes(dtype, 1), kElements);
    benchmark::DoNotOptimize(sums);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * 2 * kElements * Info(dtype).bits / 8));
}

// ---- statistics kernel --------------------------------------------------------------------------------

using internal::kStatsChunk;
using ChunkF = Eigen::Array<float, Eigen::Dynamic, 1, 0, kStatsChunk, 1>;
using ChunkD = Eigen::Array<double, Eigen::Dynamic, 1, 0, kStatsChunk, 1>;

// max, min, mean, norm and the zero count in chunks of kStatsChunk, chunk sums added exactly, as the
// kernel does; NaN/Inf counts are left out (the kernel's second pass, rare).
TensorStats EigenStats(DType dtype, const std::byte* p, uint64_t count) {
  internal::ExactSum sum, sum_sq;
  float max = -INFINITY, min = INFINITY;
  uint64_t zero = 0;
  const uint64_t item = Info(dtype).bits / 8;
  for (uint64_t first = 0; first < count; first += kStatsChunk) {
    const uint64_t n = std::min(kStatsChunk, count - first);
    const ChunkF v = dtype == DType::kF32 ? ChunkF(Eigen::Map<const Eigen::ArrayXf>(reinterpret_cast<const float*>(p + first * item), n))
                                          : ChunkF(EigenDecode(dtype, p + first * item, n));
    const ChunkD d = v.cast<double>();
    sum.Add(d.sum());
    sum_sq.Add(d.square().sum());
    max = std::max(max, v.maxCoeff<Eigen::PropagateNumbers>());
    min = std::min(min, v.minCoeff<Eigen::PropagateNumbers>());
    zero += static_cast<uint64_t>((v == 0.0f).count());
  }
  TensorStats s;
  s.max = max;
  s.min = min;
  s.zero_count = zero;
  s.mean = sum.Value() / static_cast<double>(count);
  s.norm = std::sqrt(sum_sq.Value());
  return s;
}

TensorStats KernelStats(DType dtype, const std::byte* p, uint64_t count) {
  StatsOptions options;
  options.crc32 = options.xor64 = false;  // the numbers only
  internal::StatsAccumulator acc(dtype, options);
  acc.Consume(msprobe::Bytes(p, ByteSize(dtype, count)), count);
  return acc.Finalize();
}

template <bool kEigen>
void BM_Stats(benchmark::State& state) {
  const DType dtype = state.range(0) == 32 ? DType::kF32 : DType::kBF16;
  const std::byte* p = TheData().Bytes(dtype, 0);
  const TensorStats e = EigenStats(dtype, p, kElements), k = KernelStats(dtype, p, kElements);
  std::string diff;
  for (auto [name, x, y] : {std::tuple{"max", e.max, k.max}, {"min", e.min, k.min}, {"mean", e.mean, k.mean},
                            {"norm", e.norm, k.norm}}) {
    if (std::bit_cast<uint64_t>(x) != std::bit_cast<uint64_t>(y)) diff += std::string(name) + " ";
  }
  if (e.zero_count != k.zero_count) diff += "zero ";
  // Chunk by chunk too: a chunk sum that differs in its last bit can vanish in the total.
  uint64_t chunks = 0;
  for (uint64_t first = 0; first < kElements; first += 64 * kStatsChunk) {
    const std::byte* c = p + ByteSize(dtype, first);
    const TensorStats ec = EigenStats(dtype, c, kStatsChunk), kc = KernelStats(dtype, c, kStatsChunk);
    chunks += ec.mean != kc.mean || ec.norm != kc.norm;
  }
  if (chunks > 0) diff += "in " + std::to_string(chunks) + " of " + std::to_string(kElements / kStatsChunk / 64) + " chunks";
  if (!diff.empty()) state.SetLabel("results differ: " + diff);
  for (auto _ : state) {
    const TensorStats s = kEigen ? EigenStats(dtype, p, kElements) : KernelStats(dtype, p, kElements);
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kElements * Info(dtype).bits / 8));
}

BENCHMARK(BM_Pair<false>)->Name("pair/kernel")->Arg(32)->Arg(16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Pair<true>)->Name("pair/eigen")->Arg(32)->Arg(16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Stats<false>)->Name("stats/kernel")->Arg(32)->Arg(16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Stats<true>)->Name("stats/eigen")->Arg(32)->Arg(16)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace msprobe

BENCHMARK_MAIN();
