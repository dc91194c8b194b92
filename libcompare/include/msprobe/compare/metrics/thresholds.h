// Every msprobe constant the compare uses, once, with the docs/compare.md section it comes from.
// Where msprobe's code and its docs disagree, the comment says which one we follow.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

namespace msprobe::compare {

// --- Tensor metrics (docs/compare.md §4.2) ---
// Relative-error epsilon added where golden == 0: eps of the computation dtype (float32 or float64).
inline constexpr double kRelativeEpsFloat32 = 1.1920928955078125e-07;
inline constexpr double kRelativeEpsFloat64 = 2.220446049250313e-16;
// The one for computation dtype T (float or double), np.finfo(T).eps.
template <class T>
inline constexpr T kRelativeEps = static_cast<T>(std::is_same_v<T, float> ? kRelativeEpsFloat32 : kRelativeEpsFloat64);
static_assert(kRelativeEps<float> == std::numeric_limits<float>::epsilon() &&
              kRelativeEps<double> == std::numeric_limits<double>::epsilon());
// A norm at or below this counts as "all zero" for Cosine (Const.FLOAT_EPSILON); the kernel compare
// uses it for its "All the data is Zero" messages too (docs/kernel_dump.md §6.2).
inline constexpr double kCosineZeroNorm = 2.220446049250313e-16;
// Cosine above this is rounded with Python round(x, 6) (CompareConst.COSINE_THRESHOLD, §9.16).
inline constexpr double kCosineRoundAbove = 0.9999;
inline constexpr int kCosineRoundDigits = 6;
// Error-ratio columns: share of elements with relative error below these (§9.16), compared in the
// computation dtype (0.001 rounded to float32 for float32 data, §4.2 table).
inline constexpr double kOneThousandthRatio = 0.001;
inline constexpr double kFiveThousandthsRatio = 0.005;
// Metric values go through float("%.12f" % x) (§4.2 fv()).
inline constexpr int kMetricDecimals = 12;

// --- G3 verdict checkers (docs/compare.md §5.1) ---
// OneThousandth: inputs' minimum ratio above 0.9 and outputs' minimum below 0.1. msprobe's message
// and docs say 0.6, its code compares with 0.1 (§9.3); we follow the code so Results match
// msprobe's, and keep the message text as msprobe prints it.
inline constexpr double kOneThousandthInputMin = 0.9;
inline constexpr double kOneThousandthOutputMax = 0.1;
// RelativeErr (statistics): inputs' largest NormRelativeErr below 0.1, an output's above 0.5.
inline constexpr double kRelativeErrInputMax = 0.1;
inline constexpr double kRelativeErrOutputMin = 0.5;
// RelativeWarn (statistics): outputs' NormRelativeErr 10 times the inputs', or above 0.1 when the
// inputs' is 0.
inline constexpr double kRelativeWarnRatio = 10;
inline constexpr double kRelativeWarnZeroInput = 0.1;
// CosineWarn (tensor): inputs' minimum Cosine above 0.9 and inputs - outputs above 0.1.
inline constexpr double kCosineWarnInputMin = 0.9;
inline constexpr double kCosineWarnDrop = 0.1;
// APIs (name.split('.')[1] of the group's first input row) with no checks at all.
inline constexpr std::array<std::string_view, 9> kAllIgnoreApis = {
    "empty", "empty_like", "numpy", "to", "__setitem__", "empty_with_format",
    "new_empty_strided", "new_empty", "empty_strided"};
// APIs whose inputs are not checked (per-row checks on outputs only, no group checks).
inline constexpr std::array<std::string_view, 4> kInputIgnoreApis = {
    "_reduce_scatter_base", "_all_gather_base", "all_to_all_single", "batch_isend_irecv"};
// The DType checker skips golden rows whose name contains these (fused weights).
inline constexpr std::array<std::string_view, 2> kDtypeCheckSkipNames = {"qkv", "gate_up"};

// --- Accuracy standards, CompareConst (docs/compare.md §9.16) ---
// G2's check_accuracy (§5.2), which the kernel compare keeps (docs/kernel_dump.md §6.2): "No" when
// Cosine < kCosThreshold and MaxAbsErr > kMaxAbsErrThreshold, or Cosine < kCosMaxThreshold, or
// MaxAbsErr > kMaxAbsErrMaxThreshold. STATISTIC mode's (§6.3): "Yes" when
// (max_target - max_golden) / (max(max_target, max_golden) + kEpsilon) <= kMagnitude.
inline constexpr double kCosThreshold = 0.99;
inline constexpr double kCosMaxThreshold = 0.9;
inline constexpr double kMaxAbsErrThreshold = 0.001;
inline constexpr double kMaxAbsErrMaxThreshold = 1;
inline constexpr double kMagnitude = 0.5;
inline constexpr double kEpsilon = 1e-10;

// --- Output sizes and colours (docs/compare.md §9.16, §5.3; README §2) ---
// Rows per xlsx sheet, CompareConst.MAX_EXCEL_LENGTH (docs/compare.md §1.4), for compare and merge alike.
inline constexpr size_t kMaxExcelRows = 1'048'500;
// Rows per csv file, FileCheckConst.MAX_ROWS_PER_CSV_FILE (docs/compare.md §1.4).
inline constexpr size_t kMaxRowsPerCsvFile = 1'000'000;
// The largest compare result merge reads, FileCheckConst's xlsx size limit (docs/formats.md §5.2).
inline constexpr uint64_t kMaxCompareResultBytes = uint64_t{1} << 30;
inline constexpr uint32_t kRedFill = 0xFF0000;     // "FFFF0000"
inline constexpr uint32_t kYellowFill = 0xFFFF00;  // "FFFF00"

}  // namespace msprobe::compare
