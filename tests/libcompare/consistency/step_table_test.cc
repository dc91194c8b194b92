// One step's checks (docs/consistency.md §3-§4) on values made here: the minority of a group of 3 or
// more is named, both members of a disagreeing pair, a member that did not record the call, and a
// rank far from the others' Norm a suspect.
#include "consistency/step_table_internal.h"

#include <gtest/gtest.h>

namespace msprobe::compare::internal {
namespace {

RankArg Result(double norm, std::vector<int64_t> group) {
  RankArg a;
  a.api = "Distributed.all_reduce.0.forward";
  a.name = a.api + ".output.0";
  a.role = ArgRole::kCollectiveResult;
  a.match = "all_reduce@g#0.0";
  a.grouped = !group.empty();
  a.group = std::move(group);
  a.value.dtype = "torch.float32";
  a.value.shape = "[3]";
  a.value.stats[kNorm] = norm;
  a.value.present = 1U << kNorm;
  return a;
}

RankArg Plain(double norm, double max) {
  RankArg a;
  a.api = "Functional.linear.0.forward";
  a.name = a.api + ".output.0";
  a.match = a.name;
  a.value.stats[kNorm] = norm;
  a.value.stats[kMax] = max;
  a.value.present = (1U << kNorm) | (1U << kMax);
  return a;
}

std::vector<ConsistencyFinding> Check(const std::vector<int64_t>& ranks, const std::vector<std::vector<RankArg>>& args) {
  const ConsistencyOptions options;
  StepTable table(4, ranks, options);
  for (size_t i = 0; i < ranks.size(); ++i) {
    RankValues v;
    v.rank = ranks[i];
    v.args = args[i];
    table.Add(std::move(v));
  }
  std::vector<ConsistencyFinding> findings;
  CheckTally tally;
  table.Check(&findings, &tally);
  return findings;
}

TEST(StepTable, MinorityOfThreeOrMore) {
  const std::vector<ConsistencyFinding> f =
      Check({0, 1, 2, 3}, {{Result(1.5, {})}, {Result(1.5, {})}, {Result(1.5000001, {})}, {Result(1.5, {})}});
  ASSERT_EQ(f.size(), 1U);
  EXPECT_EQ(f[0].kind, ConsistencyFinding::Kind::kInconsistency);
  EXPECT_EQ(f[0].step, 4);
  EXPECT_EQ(f[0].rank, 2);
  EXPECT_EQ(f[0].name, "Distributed.all_reduce.0.forward.output.0");
  EXPECT_EQ(f[0].group, "0-3 (world)");
  EXPECT_EQ(f[0].value, "Norm=1.5000001");
  EXPECT_EQ(f[0].expected, "Norm=1.5");
  EXPECT_EQ(f[0].reason, "3 of the group's 4 ranks agree on another value");
}

TEST(StepTable, BothOfAPair) {
  const std::vector<ConsistencyFinding> f = Check({2, 3}, {{Result(1.0, {2, 3})}, {Result(2.0, {2, 3})}});
  ASSERT_EQ(f.size(), 2U);
  EXPECT_EQ(f[0].rank, 2);
  EXPECT_EQ(f[0].reason, "differs from rank 3; a group of 2 cannot tell which is wrong");
  EXPECT_EQ(f[1].rank, 3);
  EXPECT_EQ(f[1].reason, "differs from rank 2; a group of 2 cannot tell which is wrong");
}

TEST(StepTable, AMemberThatDidNotRecordTheCall) {
  const std::vector<ConsistencyFinding> f = Check({0, 1, 2}, {{Result(1.0, {0, 1, 2})}, {Result(1.0, {0, 1, 2})}, {}});
  ASSERT_EQ(f.size(), 1U);
  EXPECT_EQ(f[0].rank, 2);
  EXPECT_EQ(f[0].value, "(not recorded)");
  EXPECT_EQ(f[0].reason, "2 of the group's 3 ranks recorded this call; this rank did not");
}

TEST(StepTable, SuspectByNorm) {
  // Norms 1, 2, 3, 4, 100 (numpy: modified z of 100 is 65.4265); Max all alike.
  const std::vector<ConsistencyFinding> f = Check(
      {0, 1, 2, 3, 4}, {{Plain(1, 7)}, {Plain(2, 7)}, {Plain(3, 7)}, {Plain(4, 7)}, {Plain(100, 7)}});
  ASSERT_EQ(f.size(), 1U);
  EXPECT_EQ(f[0].kind, ConsistencyFinding::Kind::kSuspect);
  EXPECT_EQ(f[0].rank, 4);
  EXPECT_EQ(f[0].check, "Norm z-score");
  EXPECT_EQ(f[0].expected, "3.0");
  ASSERT_TRUE(f[0].score.has_value());
  EXPECT_NEAR(*f[0].score, 65.4265, 1e-9);
}

}  // namespace
}  // namespace msprobe::compare::internal
