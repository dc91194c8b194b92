// The robust z-score of each value against the others (docs/consistency.md §4): Iglewicz and
// Hoaglin's modified z-score 0.6745·(x − median)/MAD, MAD the median of |x − median|. When more than
// half the values are equal the MAD is 0: then the mean absolute deviation stands in for it,
// z = (x − median)/(1.253314·MeanAD), so that a few values away from an agreeing majority still
// score high; when that is 0 too, every value is the median and scores 0.
#pragma once

#include <vector>

namespace msprobe::compare::internal {

struct RobustScores {
  double median = 0;
  std::vector<double> z;  // one per value, in order
};

// REQUIRES: every value finite. Fewer than 3 values score 0: two values are each as far from their
// median as the other, so no score can tell which one is off.
RobustScores ScoreRobustly(const std::vector<double>& values);

}  // namespace msprobe::compare::internal
