#include "msprobe/compare/table/verdict_kind.h"

#include <gtest/gtest.h>

namespace msprobe::compare {
namespace {

// msprobe G3 writes these Result texts (docs/compare.md §5.1); G2's "Warning" and "Different" are not ours.
TEST(VerdictKindTest, NamesAreMsprobeResultTexts) {
  EXPECT_EQ(VerdictName(Verdict::kPass), "pass");
  EXPECT_EQ(VerdictName(Verdict::kWarning), "warning");
  EXPECT_EQ(VerdictName(Verdict::kError), "error");
}

TEST(VerdictKindTest, ParsesExactlyTheNames) {
  EXPECT_EQ(ParseVerdict("pass"), Verdict::kPass);
  EXPECT_EQ(ParseVerdict("warning"), Verdict::kWarning);
  EXPECT_EQ(ParseVerdict("error"), Verdict::kError);
  for (const char* other : {"", "Warning", "ERROR", " pass", "Different", "N/A"}) {
    EXPECT_EQ(ParseVerdict(other), std::nullopt) << other;
  }
}

// A row's level only rises: error > warning > pass (docs/compare.md §5.1).
TEST(VerdictKindTest, WorseComparesGreater) {
  EXPECT_GT(Verdict::kError, Verdict::kWarning);
  EXPECT_GT(Verdict::kWarning, Verdict::kPass);
  EXPECT_GE(Verdict::kError, Verdict::kError);
  EXPECT_LT(Verdict::kPass, Verdict::kError);
}

}  // namespace
}  // namespace msprobe::compare
