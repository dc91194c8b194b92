#include "consistency/robust_z_internal.h"

#include <algorithm>
#include <cmath>

namespace msprobe::compare::internal {
namespace {

constexpr double kMadScale = 0.6745;       // Φ⁻¹(3/4): the MAD of a normal sample is 0.6745 σ
constexpr double kMeanAdScale = 1.253314;  // √(π/2): the mean absolute deviation of one is 0.7979 σ

double Median(std::vector<double> v) {
  const size_t n = v.size(), mid = n / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (n % 2 == 1) return upper;
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2;
}

}  // namespace

RobustScores ScoreRobustly(const std::vector<double>& values) {
  RobustScores out;
  out.z.assign(values.size(), 0.0);
  if (values.empty()) return out;
  out.median = Median(values);
  if (values.size() < 3) return out;
  std::vector<double> deviations(values.size());
  double sum = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    deviations[i] = std::fabs(values[i] - out.median);
    sum += deviations[i];
  }
  const double mad = Median(deviations);
  const double mean_ad = sum / static_cast<double>(values.size());
  if (mad == 0 && mean_ad == 0) return out;
  for (size_t i = 0; i < values.size(); ++i) {
    const double d = values[i] - out.median;
    out.z[i] = mad > 0 ? kMadScale * d / mad : d / (kMeanAdScale * mean_ad);
  }
  return out;
}

}  // namespace msprobe::compare::internal
