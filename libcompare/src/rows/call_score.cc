#include "rows/call_score_internal.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "msprobe/compare/rows/match.h"

namespace msprobe::compare::internal {
namespace {

// The score's parts (CallScore). The values weigh most: two calls of one op on tensors of one shape
// are every layer of a model; with no value to tell them apart a pair stays at 0.4, and the default
// threshold asks for values close on most of both calls (docs/compare.md §3.8 says how it was chosen).
constexpr float kNameWeight = 0.2f, kShapeWeight = 0.2f, kValueWeight = 0.6f;
// What a constant or boolean tensor, or a scalar argument, tells next to a tensor whose values vary:
// little, as every layer passes the same zeros, ones, flags and sizes.
constexpr float kWeakValue = 0.1f;

bool IsBool(std::string_view dtype) { return dtype == "torch.bool" || dtype == "Bool"; }

enum Stat : int { kMax, kMin, kMean, kNorm };

// How close two numbers are on a scale, in [0, 1]: 1 when equal, 0.9 at a relative difference of 1e-3,
// 0.65 at 1e-2, 0.33 at 0.1 and 0 from 1 on (a log scale: runs in another precision differ by 1e-3
// to 1e-2, different tensors by tens of percent).
float Closeness(double x, double y, double scale) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y) ? 1.f : 0.f;
  if (x == y) return 1.f;
  if (std::isinf(x) || std::isinf(y) || !(scale > 0)) return 0.f;
  const double relative = std::abs(x - y) / scale;
  return static_cast<float>(std::clamp(1.0 - std::log10(1.0 + relative * 1000.0) / 3.0, 0.0, 1.0));
}

// The scale Max, Min and Mean are compared on: the largest magnitude either tensor holds (a mean near
// zero is compared to the values around it, not to itself).
double MagnitudeScale(const OpRow& a, const OpRow& b) {
  double scale = 0;
  for (const OpRow* row : {&a, &b}) {
    for (const int stat : {kMax, kMin}) {
      const Cell& cell = row->stats[static_cast<size_t>(stat)];
      if (cell.is_number() && std::isfinite(cell.number())) scale = std::max(scale, std::abs(cell.number()));
    }
  }
  return scale;
}

// The closeness of two rows' statistics: that of the statistic furthest apart. Two tensors of one
// distribution (two layers' normalized outputs) share their mean and norm, rarely their extremes.
// Negative when no statistic is recorded on both sides.
float StatsCloseness(const OpRow& a, const OpRow& b) {
  const double magnitude = MagnitudeScale(a, b);
  float lowest = 1;
  bool counted = false;
  for (int stat = kMax; stat <= kNorm; ++stat) {
    const Cell& x = a.stats[static_cast<size_t>(stat)];
    const Cell& y = b.stats[static_cast<size_t>(stat)];
    float c;
    if (x.is_number() && y.is_number()) {
      const double scale = stat == kNorm ? std::max(std::abs(x.number()), std::abs(y.number())) : magnitude;
      c = Closeness(x.number(), y.number(), scale);
    } else if (x.is_text() && y.is_text()) {
      if (x.IsText("None") || y.IsText("None")) continue;  // not recorded
      c = x.text() == y.text() ? 1.f : 0.f;
    } else {
      c = x.ToPython() == y.ToPython() ? 1.f : 0.f;  // a bool against a number, say
    }
    lowest = std::min(lowest, c);
    counted = true;
  }
  return counted ? lowest : -1.f;
}

}  // namespace

bool IsTensorDtype(std::string_view dtype) {
  static constexpr std::array<std::string_view, 5> kNotTensors = {"None", "slice", "ellipsis", "torch.Size",
                                                                   "torch.ProcessGroup"};
  if (dtype.empty() || dtype.front() == '<') return false;  // <class 'int'>, ...
  return std::find(kNotTensors.begin(), kNotTensors.end(), dtype) == kNotTensors.end();
}

std::string_view DtypeClass(std::string_view dtype) {
  if (dtype.starts_with("torch.")) dtype.remove_prefix(6);
  const auto starts = [&](std::string_view a, std::string_view b) { return dtype.starts_with(a) || dtype.starts_with(b); };
  if (starts("float", "Float") || starts("bfloat", "BFloat") || dtype == "half") return "float";
  if (starts("int", "Int") || starts("uint", "UInt")) return "int";
  if (starts("bool", "Bool")) return "bool";
  if (starts("complex", "Complex")) return "complex";
  return dtype;
}

std::string_view PlaceInCall(const OpRow& row) {
  const std::string_view name = row.name;
  return name.starts_with(row.api) ? name.substr(row.api.size()) : name;
}

float ValueWeight(const OpRow& row, bool md5) {
  const Cell& max = row.stats[kMax];
  const Cell& min = row.stats[kMin];
  if (!IsTensorDtype(row.dtype)) {
    const bool recorded = !(max.IsText("None") && min.IsText("None"));
    return row.dtype != "None" && recorded ? kWeakValue : 0.f;
  }
  if (IsBool(row.dtype)) return kWeakValue;
  if (!max.is_number() || !min.is_number()) return md5 ? kWeakValue : 0.f;
  return max.number() != min.number() ? 1.f : kWeakValue;
}

ValueCloseness CompareValues(const OpRow& target, const OpRow& golden, bool md5) {
  const float weight = std::min(ValueWeight(target, md5), ValueWeight(golden, md5));
  if (weight == 0) return {};
  if (md5 && target.md5 == golden.md5) return {1.f, weight};  // the same bytes
  const float stats = StatsCloseness(target, golden);
  return stats < 0 ? ValueCloseness{} : ValueCloseness{stats, weight};
}

std::vector<std::pair<size_t, size_t>> PairCallRows(const std::vector<OpRow>& target, CallRows a,
                                                    const std::vector<OpRow>& golden, CallRows b,
                                                    bool cross_framework) {
  std::vector<std::pair<size_t, size_t>> pairs;
  std::vector<bool> taken(b.count, false);
  for (size_t n = a.first; n < a.first + a.count; ++n) {
    const std::string_view place = PlaceInCall(target[n]);
    for (size_t k = 0; k < b.count; ++k) {
      const OpRow& candidate = golden[b.first + k];
      if (taken[k] || PlaceInCall(candidate) != place) continue;
      if (DtypesCompatible(target[n].dtype, candidate.dtype, cross_framework)) {
        taken[k] = true;
        pairs.emplace_back(n, b.first + k);
      }
      break;  // a place occurs once in a call
    }
  }
  return pairs;
}

float CallScore(const std::vector<OpRow>& target, CallRows a, const std::vector<OpRow>& golden, CallRows b,
                bool same_op, bool cross_framework, bool md5) {
  float shapes = 0, closeness = 0, target_weight = 0, golden_weight = 0;
  for (size_t n = a.first; n < a.first + a.count; ++n) target_weight += ValueWeight(target[n], md5);
  for (size_t k = b.first; k < b.first + b.count; ++k) golden_weight += ValueWeight(golden[k], md5);
  for (const auto& [n, k] : PairCallRows(target, a, golden, b, cross_framework)) {
    if (target[n].shape == golden[k].shape) shapes += 1;
    const ValueCloseness values = CompareValues(target[n], golden[k], md5);
    closeness += values.weight * values.closeness;
  }
  const float rows = static_cast<float>(std::max(a.count, b.count));
  // The values count against what both calls hold, and against one varying tensor at least: calls of
  // constants and flags alone are told apart by nothing.
  const float weight = std::max(1.f, (target_weight + golden_weight) / 2);
  const float score = (same_op ? kNameWeight : 0.f) + kShapeWeight * (rows > 0 ? shapes / rows : 0.f) +
                      kValueWeight * closeness / weight;
  return std::min(score, 1.f);
}

}  // namespace msprobe::compare::internal
