// The collectives the consistency check reads (docs/consistency.md §3.1): which hold identical
// results, where msprobe records the result, and the group a call names, from entries written as
// msprobe writes them (tests/data/consistency).
#include "consistency/collective_call_internal.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace msprobe::compare::internal {
namespace {

JsonDocument Parse(std::string_view text) {
  Result<JsonDocument> doc = ParseJsonText(text, "entry");
  EXPECT_TRUE(doc.ok());
  return std::move(*doc);
}

constexpr const char* kTensor = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [3], "Max": 1})";

TEST(CollectiveCall, AllReduceWithARecordedGroup) {
  const JsonDocument e = Parse(fmt::format(
      R"({{"input_args": [{0}], "input_kwargs": {{"group": {{"type": "torch.ProcessGroup", "group_ranks": [3, 1, 2],
          "group_id": "x"}}}}, "output": [{0}, {{"type": "torch.ProcessGroup", "group_ranks": [3, 1, 2]}}]}})",
      kTensor));
  const std::optional<CollectiveCall> call = ReadCollectiveCall("Distributed.all_reduce.3.forward", e);
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(call->api, "all_reduce");
  EXPECT_TRUE(call->identical_result);
  EXPECT_TRUE(call->reduces);
  EXPECT_EQ(call->result_path, "output.0");
  EXPECT_TRUE(call->grouped);
  EXPECT_EQ(call->group, (std::vector<int64_t>{1, 2, 3}));
}

TEST(CollectiveCall, KwargsOnlyResultAndTheWorld) {
  const JsonDocument e = Parse(fmt::format(R"({{"input_args": [], "input_kwargs": {{"src": 0, "tensor": {0}}},
                                               "output": [0, {0}]}})", kTensor));
  const std::optional<CollectiveCall> call = ReadCollectiveCall("Distributed.broadcast.0.forward", e);
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(call->result_path, "output.1");
  EXPECT_FALSE(call->grouped);
  EXPECT_FALSE(call->reduces);
}

TEST(CollectiveCall, OthersAreNotCollectivesWithOneResult) {
  const JsonDocument e = Parse(fmt::format(R"({{"input_args": [{0}], "output": [{0}]}})", kTensor));
  EXPECT_FALSE(ReadCollectiveCall("Functional.linear.0.forward", e).has_value());
  EXPECT_FALSE(ReadCollectiveCall("Distributed.all_reduce.0.backward", e).has_value());
  EXPECT_FALSE(ReadCollectiveCall("Distributed.send.0.forward", e).has_value());
  const std::optional<CollectiveCall> rs = ReadCollectiveCall("Distributed.reduce_scatter.0.forward", e);
  ASSERT_TRUE(rs.has_value());
  EXPECT_FALSE(rs->identical_result);  // each member keeps its own part
  EXPECT_TRUE(rs->reduces);
}

TEST(CollectiveCall, RanksText) {
  EXPECT_EQ(RanksText({0, 1, 2, 3, 7}), "0-3,7");
  EXPECT_EQ(RanksText({2, 3}), "2,3");
  EXPECT_EQ(RanksText({0, 2, 3, 4, 6}), "0,2-4,6");
  EXPECT_EQ(RanksText({}), "");
}

}  // namespace
}  // namespace msprobe::compare::internal
