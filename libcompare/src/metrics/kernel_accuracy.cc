#include "msprobe/compare/metrics/kernel_accuracy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "msprobe/compare/metrics/thresholds.h"

namespace msprobe::compare {
namespace {

// A metric cell as the table shows a number, or its text.
std::string CellText(const Cell& cell) {
  if (cell.is_number()) return fmt::format("{}", cell.number());
  return cell.is_text() ? cell.text() : std::string("empty");
}

double Magnitude(float target_max, float golden_max) {
  if (std::isnan(target_max) && std::isnan(golden_max)) return 0;
  return static_cast<double>(target_max - golden_max) / (std::max<double>(target_max, golden_max) + kEpsilon);
}

// NpyAccuracy's reason, rule by rule in its order.
std::string NpyReason(const Cell& cosine, const Cell& max_abs) {
  if (cosine.IsText("shape unmatched")) return "shape unmatched";
  if (cosine.IsText("N/A") || max_abs.IsText("N/A")) {
    return fmt::format("Cosine {}, MaxAbsErr {}", CellText(cosine), CellText(max_abs));
  }
  if (!cosine.is_number() || !max_abs.is_number()) {
    return fmt::format("no verdict: Cosine {}, MaxAbsErr {}", CellText(cosine), CellText(max_abs));
  }
  const double cos = cosine.number(), abs_err = max_abs.number();
  if (cos < kCosThreshold && abs_err > kMaxAbsErrThreshold) {
    return fmt::format("Cosine {} < {} and MaxAbsErr {} > {}", cos, kCosThreshold, abs_err, kMaxAbsErrThreshold);
  }
  if (cos < kCosMaxThreshold) return fmt::format("Cosine {} < {}", cos, kCosMaxThreshold);
  if (abs_err > kMaxAbsErrMaxThreshold) return fmt::format("MaxAbsErr {} > {}", abs_err, kMaxAbsErrMaxThreshold);
  return "";
}

}  // namespace

Accuracy NpyAccuracy(const Cell& cosine, const Cell& max_abs) {
  if (cosine.IsText("shape unmatched")) return Accuracy::kUnmatched;
  if (cosine.IsText("N/A") || max_abs.IsText("N/A")) return Accuracy::kNo;
  if (!cosine.is_number() || !max_abs.is_number()) return Accuracy::kNone;
  const double cos = cosine.number(), abs_err = max_abs.number();
  if (cos < kCosThreshold && abs_err > kMaxAbsErrThreshold) return Accuracy::kNo;
  if (cos < kCosMaxThreshold || abs_err > kMaxAbsErrMaxThreshold) return Accuracy::kNo;
  return Accuracy::kYes;
}

Accuracy StatisticAccuracy(float target_max, float golden_max) {
  return Magnitude(target_max, golden_max) <= kMagnitude ? Accuracy::kYes : Accuracy::kNo;
}

std::string VerdictReason(const ResultRow& row, CompareMode mode, ResultLayout layout) {
  std::string text = ErrMessageText(row, layout);
  if (layout != ResultLayout::kKernel || !text.empty() || row.result == Verdict::kPass) return text;
  if (mode == CompareMode::kTensor) {
    const Cell none{};
    return NpyReason(row.metrics.size() > kCosine ? row.metrics[kCosine] : none,
                     row.metrics.size() > kMaxAbsErr ? row.metrics[kMaxAbsErr] : none);
  }
  const auto max_of = [](const Cell& cell) { return cell.is_number() ? static_cast<float>(cell.number()) : NAN; };
  const float target_max = max_of(row.target_stats[0]), golden_max = max_of(row.golden_stats[0]);
  return fmt::format("(NPU max - Bench max) / max(NPU max, Bench max) = {} > {}", Magnitude(target_max, golden_max),
                     kMagnitude);
}

}  // namespace msprobe::compare
