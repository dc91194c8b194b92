// CompareTensors: locate and load the two files, the validation chain and the metric cells of
// docs/compare.md §4.2. The reductions themselves are in pair_kernel.cc.
#include "msprobe/compare/metrics/tensor_compare.h"


#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <optional>
#include <vector>

#include "msprobe/dump/text/python_format.h"
#include "msprobe/compare/metrics/thresholds.h"
#include "msprobe/compare/table/result_row.h"
#include "msprobe/dump/files/content_hash.h"
#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/tensor/element_types.h"
#include "msprobe/dump/tensor/tensor_source.h"
#include "metrics/joined_tensor_internal.h"
#include "metrics/loaded_tensor_internal.h"
#include "metrics/numpy_types_internal.h"
#include "metrics/pair_kernel_internal.h"
#include "metrics/right_matmul_internal.h"

namespace msprobe::compare {
namespace {

using internal::ApplyRightMatmul;
using internal::LoadedTensor;
using internal::PairSums;
using internal::Promote;
using internal::RelPrecision;
using internal::ScalarType;
using internal::ScalarTypeOf;

using Cells = std::array<Cell, 6>;

constexpr uint64_t kParallelWindows = 4;                  // tensors over this many windows use TBB

Cells All(const Cell& cell) {
  Cells cells;
  cells.fill(cell);
  return cells;
}

Cell Fv(double x) { return Cell::Float(RoundTo12Decimals(x)); }

// ---- 0-d tensors (§4.2 step 4 "0-d" and step 6.6) ---------------------------------------------------

// One element as numpy holds it: integers exactly, everything else as double.
struct Scalar {
  ScalarType type;
  double value = 0;
  int64_t signed_value = 0;
  uint64_t unsigned_value = 0;
};

Result<Scalar> ReadScalar(const LoadedTensor& source) {
  ElementWindow window;
  Bytes bytes;
  MSP_RETURN_IF_ERROR(source.Read(0, 1, &window, &bytes));
  const std::byte* p = bytes.data();
  const DType dtype = source.info().dtype;
  Scalar s{ScalarTypeOf(dtype)};
  if (dtype == DType::kBool) {
    s.signed_value = s.unsigned_value = p[0] != std::byte{0};
    s.value = static_cast<double>(s.signed_value);
    return s;
  }
  VisitDType(dtype, [&](auto tag) {
    using E = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<E> && !std::is_same_v<E, bool>) {
      E e;
      std::memcpy(&e, p, sizeof(E));
      s.signed_value = static_cast<int64_t>(e);
      s.unsigned_value = static_cast<uint64_t>(e);
      s.value = static_cast<double>(e);
    } else if constexpr (std::is_same_v<E, std::complex<float>> || std::is_same_v<E, std::complex<double>>) {
      E e;
      std::memcpy(&e, p, sizeof(E));
      s.value = e.real();
    } else if constexpr (std::is_same_v<E, Complex32>) {
      E e;
      std::memcpy(&e, p, sizeof(E));
      s.value = Float16ToFloat(e.re.bits);
    } else {
      s.value = ElementToDouble(dtype, p, 0);
    }
  });
  return s;
}

// Round-to-nearest-even of a double to float16, as a double.
double RoundToHalf(double x) {
  if (!std::isfinite(x) || x == 0) return x;
  const int exponent = std::max(std::ilogb(x), -14);
  const double quantum = std::ldexp(1.0, exponent - 10);
  const double r = std::nearbyint(x / quantum) * quantum;
  return std::fabs(r) >= 65520.0 ? std::copysign(INFINITY, r) : r;
}

// v cut to a two's-complement integer of `bits` bits, sign-extended for signed types.
uint64_t WrapBits(ScalarType type, uint64_t v) {
  if (type.bits >= 64) return v;
  const uint64_t mask = (uint64_t{1} << type.bits) - 1;
  v &= mask;
  if (type.kind == ScalarType::kSigned && (v >> (type.bits - 1)) != 0) v |= ~mask;
  return v;
}

// np.max(np.abs(n - b)) on 0-d arrays: bool pairs become float64 (reshape_value), the rest keep the
// promoted dtype, so integers wrap and abs() of the most negative value stays negative.
double ZeroDimAbsDiff(const Scalar& n, const Scalar& b) {
  const ScalarType type = n.type.kind == ScalarType::kBool ? ScalarType{ScalarType::kFloat, 64} : Promote(n.type, b.type);
  if (type.kind == ScalarType::kFloat) {
    if (type.bits == 16) return std::fabs(RoundToHalf(n.value - b.value));  // exact in double, then rounded
    if (type.bits == 32) return std::fabs(static_cast<double>(static_cast<float>(n.value) - static_cast<float>(b.value)));
    return std::fabs(n.value - b.value);
  }
  const uint64_t diff = WrapBits(type, n.unsigned_value - b.unsigned_value);
  if (type.kind == ScalarType::kUnsigned) return static_cast<double>(diff);
  const auto signed_diff = static_cast<int64_t>(diff);
  const uint64_t magnitude = signed_diff < 0 ? uint64_t{0} - diff : diff;
  return static_cast<double>(static_cast<int64_t>(WrapBits(type, magnitude)));
}

// §4.2 step 6 for 0-d arrays. T follows NumPy 1.x value-based casting (step 6.6, our choice; msprobe's
// verified 0-d values come from NumPy 1.24): result_type(n, b, float32) is float32 unless a float64
// side (ints and bools are float64 by then) holds a finite value of magnitude >= 3.4e38, which
// numpy's min_scalar_type puts beyond float32.
template <class T>
double ZeroDimRelErr(double n, double b) {
  const bool zero = b == 0;  // the mask is taken before the cast
  T nt = static_cast<T>(n), bt = static_cast<T>(b);
  if (zero) {
    nt += kRelativeEps<T>;
    bt += kRelativeEps<T>;
  }
  const T diff = nt - bt;
  const T re = diff / bt;
  return std::fabs(static_cast<double>(re));
}

// Keeps why a tensor could not be read, for the caller's count; the row itself says "unsupported".
Cells Unreadable(Status status, Status* unreadable) {
  if (unreadable != nullptr) *unreadable = std::move(status);
  return All(Cell::Unsupported());
}

Cells CompareZeroDim(const LoadedTensor& target, const LoadedTensor& golden, Status* unreadable) {
  Result<Scalar> n = ReadScalar(target);
  Result<Scalar> b = ReadScalar(golden);
  if (!n.ok()) return Unreadable(n.status(), unreadable);
  if (!b.ok()) return Unreadable(b.status(), unreadable);
  auto beyond_float32 = [](const Scalar& s) {
    const bool float64 = s.type.kind != ScalarType::kFloat || s.type.bits == 64;
    return float64 && std::isfinite(s.value) && std::fabs(s.value) >= 3.4e38;
  };
  const bool wide = beyond_float32(*n) || beyond_float32(*b);
  const double re = wide ? ZeroDimRelErr<double>(n->value, b->value) : ZeroDimRelErr<float>(n->value, b->value);
  const double abs_diff = ZeroDimAbsDiff(*n, *b);
  Cells cells = All(Cell::Unsupported());
  cells[kMaxAbsErr] = std::isnan(abs_diff) ? Cell::Nan() : Fv(abs_diff);
  cells[kMaxRelativeErr] = std::isnan(re) ? Cell::Nan() : Fv(re);
  return cells;
}

// ---- streaming ---------------------------------------------------------------------------------------

// A run of windows, or the first read error met in it.
struct Partial {
  PairSums sums;
  Status status;
};

// The target side's window [first, first + count) with its elements from `zero_from` on read as zeros
// (all-zero bytes are zero in every dtype), copied into `zeroed`. `bytes`: what was read, the
// elements before zero_from at least.
Bytes ZeroTail(Bytes bytes, uint64_t first, uint64_t count, uint64_t zero_from, uint64_t item,
               std::vector<std::byte>* zeroed) {
  const uint64_t keep = zero_from > first ? zero_from - first : 0;
  zeroed->assign(count * item, std::byte{0});
  if (keep > 0) std::memcpy(zeroed->data(), bytes.data(), keep * item);
  return Bytes(zeroed->data(), zeroed->size());
}

// `zero_from`: the target elements from this one on are read as zeros (numel: none). `hasher`, when
// given, receives the target's windows if they are all read in order (one thread, nothing zeroed);
// *hashed says whether they were.
Result<PairSums> StreamPair(const LoadedTensor& target, const LoadedTensor& golden, uint64_t chunk_elements,
                            uint64_t zero_from, ContentHasher* hasher, bool* hashed) {
  const uint64_t numel = target.numel();
  // Windows start at multiples of kBlock so the sums do not depend on the window size (pair_kernel).
  const uint64_t block = internal::kBlock;
  const uint64_t window = std::max<uint64_t>(block, (chunk_elements + block - 1) / block * block);
  const uint64_t windows = (numel + window - 1) / window;
  const DType target_dtype = target.info().dtype, golden_dtype = golden.info().dtype;
  const RelPrecision precision = internal::RelPrecisionOf(target_dtype, golden_dtype);

  const uint64_t target_item = Info(target_dtype).bits / 8;

  // One window per side, and the target window's zeroed copy, alive per task: memory bounded by the window size.
  struct Windows {
    ElementWindow target, golden;
    std::vector<std::byte> zeroed;
  };
  auto consume = [&](uint64_t index, Windows* w, Partial* partial, ContentHasher* window_hasher) {
    if (!partial->status.ok()) return;
    const uint64_t first = index * window;
    const uint64_t count = std::min(window, numel - first);
    const bool target_read = first < zero_from;  // a window of zeros only is not read
    Bytes target_bytes, golden_bytes;
    Status status = target_read ? target.Read(first, count, &w->target, &target_bytes) : Status::Ok();
    if (status.ok()) status = golden.Read(first, count, &w->golden, &golden_bytes);
    if (!status.ok()) {
      partial->status = std::move(status);
      return;
    }
    if (window_hasher != nullptr) window_hasher->Add(target_bytes);
    if (first + count > zero_from)
      target_bytes = ZeroTail(target_bytes, first, count, zero_from, target_item, &w->zeroed);
    internal::ConsumePair(target_dtype, target_bytes.data(), golden_dtype, golden_bytes.data(), count, precision,
                          &partial->sums);
    status = target_read ? w->target.Intact() : Status::Ok();
    partial->status = status.ok() ? w->golden.Intact() : std::move(status);
  };

  Partial total;
  if (windows <= kParallelWindows) {
    *hashed = hasher != nullptr && zero_from >= numel;
    Windows w;
    for (uint64_t index = 0; index < windows; ++index) consume(index, &w, &total, *hashed ? hasher : nullptr);
  } else {
    total = tbb::parallel_deterministic_reduce(
        tbb::blocked_range<uint64_t>(0, windows, 1), total,
        [&](const tbb::blocked_range<uint64_t>& range, Partial partial) {
          Windows w;
          for (uint64_t index = range.begin(); index != range.end(); ++index) consume(index, &w, &partial, nullptr);
          return partial;
        },
        [](Partial left, const Partial& right) {
          if (left.status.ok()) {
            if (right.status.ok()) left.sums.Merge(right.sums);
            else left.status = right.status;
          }
          return left;
        });
  }
  if (!total.status.ok()) return total.status;
  return total.sums;
}

// The step-6 table from the reductions of a tensor with numel >= 2 elements.
Cells MetricCells(const PairSums& sums, uint64_t numel) {
  Cells cells;
  const double target_norm = std::sqrt(sums.target_sq.Value()), golden_norm = std::sqrt(sums.golden_sq.Value());
  if (target_norm <= kCosineZeroNorm && golden_norm <= kCosineZeroNorm) {
    cells[kCosine] = Cell::Float(1.0);
  } else if (target_norm <= kCosineZeroNorm || golden_norm <= kCosineZeroNorm) {
    cells[kCosine] = Cell::Nan();  // "All the data is Zero in npu/Bench dump data."
  } else {
    const double cosine = sums.dot.Value() / (target_norm * golden_norm);
    if (std::isnan(cosine)) {
      cells[kCosine] = Cell::Nan();
    } else {
      double value = RoundTo12Decimals(cosine);
      if (value > kCosineRoundAbove) value = PythonRound(value, kCosineRoundDigits);
      cells[kCosine] = Cell::Float(value);
    }
  }
  cells[kEucDist] = Cell::Float(std::sqrt(sums.diff_sq.Value()));  // not rounded (§4.2 table)
  cells[kMaxAbsErr] = std::isnan(sums.max_abs) ? Cell::Nan() : Fv(sums.max_abs);
  cells[kMaxRelativeErr] = std::isnan(sums.max_rel) ? Cell::Nan() : Fv(sums.max_rel);
  const auto size = static_cast<double>(numel);
  cells[kOneThousandth] = Fv(static_cast<double>(sums.below_thousandth) / size);
  cells[kFiveThousandths] = Fv(static_cast<double>(sums.below_five_thousandths) / size);
  return cells;
}

// The first target element that step 3's scratch-row cleaning reads as zero: rows from `valid_rows` on
// along axis 0 of the squeezed `shape` (numel when nothing is cleaned).
uint64_t ZeroFrom(int64_t valid_rows, const std::vector<int64_t>& shape, uint64_t numel) {
  if (valid_rows < 0 || shape.empty() || valid_rows >= shape[0]) return numel;
  return static_cast<uint64_t>(valid_rows) * (numel / static_cast<uint64_t>(shape[0]));
}

// Steps 4-6 of §4.2 on two loaded tensors, the target rows from `target_valid_rows` on read as zeros.
// `target_hash`, when given, receives the target's content hash if its elements were all streamed.
Cells CompareLoaded(const LoadedTensor& target, const LoadedTensor& golden, const TensorCompareOptions& options,
                    int64_t target_valid_rows, Status* unreadable, std::optional<uint64_t>* target_hash) {
  // Step 4, validate, in G3's order: empty, shape (squeezed), 0-d, NaN/Inf (in the kernel).
  if (target.numel() == 0) return All(Cell::Unsupported());  // values None -> "unsupported"
  const std::vector<int64_t> shape = target.CompareShape(options.squeeze);
  if (shape != golden.CompareShape(options.squeeze)) return All(Cell::Text("shape unmatched"));
  if (shape.empty()) return CompareZeroDim(target, golden, unreadable);

  // int4 packs two elements a byte: its windows are left to TensorContentHash.
  std::optional<ContentHasher> hasher;
  if (target_hash != nullptr && Info(target.info().dtype).bits % 8 == 0) {
    hasher.emplace(target.info().dtype, target.info().shape);
  }
  bool hashed = false;
  const uint64_t zero_from = ZeroFrom(target_valid_rows, shape, target.numel());
  Result<PairSums> sums =
      StreamPair(target, golden, options.chunk_elements, zero_from, hasher ? &*hasher : nullptr, &hashed);
  if (!sums.ok()) return Unreadable(sums.status(), unreadable);
  if (hashed) *target_hash = hasher->value();
  if (sums->mask_mismatch) return All(Cell::NA());  // first-stage "Nan" -> "N/A"
  Cells cells = MetricCells(*sums, target.numel());
  if (target.numel() == 1) cells[kCosine] = Cell::Unsupported();  // a length-1 vector (only unsqueezed)
  return cells;
}

}  // namespace

Cells CompareTensors(const TensorCompareInput& input, const TensorCompareOptions& options, Status* unreadable,
                     std::optional<uint64_t>* target_hash) {
  // Step 1, locate: "No real data" and "api unmatched" both end as "unsupported" (step 5).
  if (input.target_data_name == "-1" || input.golden_data_name == "-1") return All(Cell::Unsupported());
  if (!input.golden_matched || input.target_data_name == "N/A" || input.golden_data_name == "N/A") {
    return All(Cell::Unsupported());
  }
  // Step 2, load: a missing, unreadable or refused file is "No data" -> "unsupported".
  const auto load = [&](bool target, const std::string& dir, const std::string& data_name) {
    return internal::ReadsJoined(options.consistent, target, data_name) ? internal::LoadJoined(dir, data_name)
                                                                        : LoadedTensor::Load(dir, data_name);
  };
  // A product or a joined read is not the file's content: such a target is not hashed here.
  bool target_is_file = !internal::ReadsJoined(options.consistent, true, input.target_data_name);
  Result<LoadedTensor> target = load(true, input.target_tensor_dir, input.target_data_name);
  if (!target.ok()) return Unreadable(target.status(), unreadable);
  Result<LoadedTensor> golden = load(false, input.golden_tensor_dir, input.golden_data_name);
  if (!golden.ok()) return Unreadable(golden.status(), unreadable);
  // Step 3: the scratch rows are zeroed before a product, which then holds them.
  int64_t target_valid_rows = input.target_valid_rows;
  if (options.right_matmul != nullptr && !options.right_matmul->empty()) {
    const uint64_t zero_from = ZeroFrom(target_valid_rows, target->CompareShape(options.squeeze), target->numel());
    Result<std::optional<LoadedTensor>> n =
        ApplyRightMatmul(*options.right_matmul, true, input.target_data_name, *target, options.squeeze, zero_from);
    if (!n.ok()) return Unreadable(n.status(), unreadable);
    if (*n) {
      *target = std::move(**n);
      target_valid_rows = -1;
      target_is_file = false;
    }
    Result<std::optional<LoadedTensor>> b = ApplyRightMatmul(*options.right_matmul, false, input.golden_data_name,
                                                             *golden, options.squeeze, golden->numel());
    if (!b.ok()) return Unreadable(b.status(), unreadable);
    if (*b) *golden = std::move(**b);
  }
  return CompareLoaded(*target, *golden, options, target_valid_rows, unreadable,
                       target_is_file ? target_hash : nullptr);
}

Cells CompareTensorInfos(const TensorInfo& target_info, const TensorInfo& golden_info,
                         const TensorCompareOptions& options) {
  Result<LoadedTensor> target = LoadedTensor::FromInfo(target_info);
  if (!target.ok()) return All(Cell::Unsupported());
  Result<LoadedTensor> golden = LoadedTensor::FromInfo(golden_info);
  if (!golden.ok()) return All(Cell::Unsupported());
  return CompareLoaded(*target, *golden, options, -1, nullptr, nullptr);
}

}  // namespace msprobe::compare
