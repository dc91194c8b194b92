// The communication graph's rules where msprobe's -da and overflow_check differ
// (first_diff/comm_graph_internal.h), on a hand-made view of two ranks' ops.
#include "first_diff/comm_graph_internal.h"

#include <gtest/gtest.h>

namespace msprobe::compare {
namespace {

struct FakeOp {
  std::string name;
  bool comm = false, flagged = false, inputs_flagged = false;
};

class FakeOps : public CommOps {
 public:
  explicit FakeOps(std::vector<std::vector<FakeOp>> ranks) : ranks_(std::move(ranks)) {}
  size_t RankCount() const override { return ranks_.size(); }
  int Rank(size_t pos) const override { return static_cast<int>(pos); }
  size_t OpCount(size_t pos) const override { return ranks_[pos].size(); }
  const std::string& Name(size_t pos, size_t op) const override { return ranks_[pos][op].name; }
  bool IsCommunication(size_t pos, size_t op) const override { return ranks_[pos][op].comm; }
  bool IsIgnored(size_t, size_t) const override { return false; }
  bool Flagged(size_t pos, size_t op) const override { return ranks_[pos][op].flagged; }
  CommDirection Direction(size_t, size_t) const override { return CommDirection::kLink; }
  std::vector<int> Peers(size_t, size_t) const override { return {}; }
  bool KeptByPruning(size_t pos, size_t op) const override { return ranks_[pos][op].flagged || ranks_[pos][op].inputs_flagged; }
  bool InputsFlagged(size_t pos, size_t op) const override { return ranks_[pos][op].inputs_flagged; }

 private:
  std::vector<std::vector<FakeOp>> ranks_;
};

// Rank 0's all_reduce overflows after a clean compute op (sub_layer 1); rank 1's broadcast follows an
// overflowing compute op (sub_layer 0) and has overflowing inputs. They do not connect.
FakeOps TwoRanks() {
  return FakeOps({
      {{"Distributed.all_reduce.0.forward", true}, {"Functional.a.0.forward"}, {"Distributed.all_reduce.1.forward", true, true}},
      {{"Distributed.broadcast.0.forward", true}, {"Functional.b.0.forward", false, true},
       {"Distributed.broadcast.1.forward", true, false, true}},
  });
}

// -da starts a group for rank 1's node too, and its compute op, the smaller key, wins.
TEST(CommGraphTest, DiffAnalyzeGroupsEveryRanksNode) {
  const FirstDiff found = SearchFirstFlagged(TwoRanks(), DiffAnalyzeRules());
  EXPECT_EQ(found.stage, DiffStage::kDuringCommunication);
  ASSERT_EQ(found.nodes.size(), 1u);
  EXPECT_EQ(found.nodes[0].rank_pos, 1u);
  EXPECT_EQ(found.nodes[0].op, 1u);
}

// overflow_check's quirk: in a round only a node already in a group starts one, so rank 1's node
// is lost and rank 0's all_reduce wins.
TEST(CommGraphTest, OverflowCheckLosesTheRoundsUngroupedNodes) {
  const FirstDiff found = SearchFirstFlagged(TwoRanks(), OverflowCheckRules());
  EXPECT_EQ(found.stage, DiffStage::kDuringCommunication);
  ASSERT_EQ(found.nodes.size(), 1u);
  EXPECT_EQ(found.nodes[0].rank_pos, 0u);
  EXPECT_EQ(found.nodes[0].op, 2u);
}

}  // namespace
}  // namespace msprobe::compare
