#include "msprobe/compare/merge/merge_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace msprobe::compare {
namespace {

MergeValue Text(std::string_view s) {
  MergeValue v;
  v.kind = MergeValue::Kind::kText;
  v.text = s;
  return v;
}

MergeValue Float(double x) {
  MergeValue v;
  v.kind = MergeValue::Kind::kFloat;
  v.number = x;
  return v;
}

TEST(MergeTable, RowsComeInFirstAppearanceOrderAndRepeatsKeepTheirFirstValue) {
  MergeTable table({"Max diff"});
  table.AddRank(0, std::vector<std::string_view>{"a", "b", "c"}, {{Text("a0"), Text("b0"), Float(0.5)}});
  // Another order, a new name, and "c" twice: its first value wins.
  table.AddRank(3, std::vector<std::string_view>{"c", "a", "d", "c"},
                {{Text("c3"), Float(1.5), Text("d3"), Text("c3 again")}});
  ASSERT_EQ(table.row_count(), 4u);
  EXPECT_EQ(table.row_name(0), "a");
  EXPECT_EQ(table.row_name(1), "b");
  EXPECT_EQ(table.row_name(2), "c");
  EXPECT_EQ(table.row_name(3), "d");
  ASSERT_EQ(table.rank_count(), 2u);
  EXPECT_EQ(table.rank(1), 3u);

  EXPECT_EQ(table.Value(0, 0, 0).text, "a0");
  EXPECT_EQ(table.Value(0, 2, 0).kind, MergeValue::Kind::kFloat);
  EXPECT_EQ(table.Value(0, 2, 0).number, 0.5);
  EXPECT_EQ(table.Value(0, 3, 0).kind, MergeValue::Kind::kMissing);  // "d" came with rank 3
  EXPECT_EQ(table.Value(0, 0, 1).number, 1.5);
  EXPECT_EQ(table.Value(0, 1, 1).kind, MergeValue::Kind::kMissing);  // rank 3 has no "b"
  EXPECT_EQ(table.Value(0, 2, 1).text, "c3");
  EXPECT_EQ(table.Value(0, 3, 1).text, "d3");
}

TEST(MergeTable, CopiesTheViewsItIsGiven) {
  MergeTable table({"Max diff", "L2norm diff"});
  {
    std::string name = "Functional.linear.0.forward.input.0";
    std::string value = "0.125";
    table.AddRank(0, std::vector<std::string_view>{name}, {{Text(value)}, {Float(2)}});
    name.assign(name.size(), '?');
    value.assign(value.size(), '?');
  }
  EXPECT_EQ(table.row_name(0), "Functional.linear.0.forward.input.0");
  EXPECT_EQ(table.Value(0, 0, 0).text, "0.125");
  EXPECT_EQ(table.Value(1, 0, 0).number, 2.0);
}

}  // namespace
}  // namespace msprobe::compare
