// The robust z-score (docs/consistency.md §4) against numpy: 0.6745·(x − median)/MAD, and the mean
// absolute deviation in place of a zero MAD. Expected values printed by numpy (np.median, np.mean).
#include "consistency/robust_z_internal.h"

#include <gtest/gtest.h>

namespace msprobe::compare::internal {
namespace {

TEST(RobustZ, ModifiedZScoreOfAnOutlier) {
  const RobustScores s = ScoreRobustly({1, 2, 3, 4, 100});
  EXPECT_EQ(s.median, 3.0);
  const std::vector<double> numpy = {-1.349, -0.6745, 0.0, 0.6745, 65.4265};
  ASSERT_EQ(s.z.size(), numpy.size());
  for (size_t i = 0; i < numpy.size(); ++i) EXPECT_NEAR(s.z[i], numpy[i], 1e-12) << i;
}

TEST(RobustZ, EvenCountTakesTheMiddlePairsMean) {
  const RobustScores s = ScoreRobustly({8, 2, 6, 4});
  EXPECT_EQ(s.median, 5.0);
  EXPECT_NEAR(s.z[0], 1.01175, 1e-12);
  EXPECT_NEAR(s.z[1], -1.01175, 1e-12);
}

TEST(RobustZ, ZeroMadFallsBackToTheMeanAbsoluteDeviation) {
  const RobustScores s = ScoreRobustly({5, 5, 9, 5, 5});
  EXPECT_EQ(s.median, 5.0);
  EXPECT_NEAR(s.z[2], 3.989423241103187, 1e-9);
  EXPECT_EQ(s.z[0], 0.0);
}

TEST(RobustZ, AllEqualOrTooFewScoreZero) {
  for (const std::vector<double>& v : {std::vector<double>{7, 7, 7, 7}, std::vector<double>{1, 100}}) {
    const RobustScores s = ScoreRobustly(v);
    for (double z : s.z) EXPECT_EQ(z, 0.0);
  }
}

}  // namespace
}  // namespace msprobe::compare::internal
