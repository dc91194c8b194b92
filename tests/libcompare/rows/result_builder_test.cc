// BuildResultRows: the shared columns of every pair, whether a golden row is paired once (its fields
// are moved) or with several target rows (copied to all but the last).
#include "msprobe/compare/rows/result_builder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace msprobe::compare {
namespace {

OpRow Row(const std::string& name, const std::string& dtype, double max) {
  OpRow row;
  row.name = name;
  row.api = name.substr(0, name.rfind(".input"));
  row.dtype = dtype;
  row.shape = "[2, 3]";
  row.stats = {Cell::Float(max), Cell::Float(-max), Cell::Float(0.5), Cell::Float(7.25)};
  row.data_name = name + ".pt";
  row.requires_grad = "False";
  return row;
}

void ExpectGolden(const ResultRow& r, const std::string& name, double max) {
  EXPECT_EQ(r.golden_name, name);
  EXPECT_EQ(r.golden_dtype, "torch.bfloat16");
  EXPECT_EQ(r.golden_shape, "[2, 3]");
  EXPECT_EQ(r.golden_requires_grad, "False");
  EXPECT_EQ(r.golden_data_name, name + ".pt");
  EXPECT_EQ(r.golden_stats[0], Cell::Float(max));
  EXPECT_EQ(r.golden_stats[3], Cell::Float(7.25));
  EXPECT_TRUE(r.matched);
}

TEST(ResultBuilderTest, GoldenRowPairedWithSeveralTargetRowsFillsEachOfThem) {
  std::vector<OpRow> target = {Row("T.a.0.forward.input.0", "torch.float32", 1),
                               Row("T.a.0.forward.input.0", "torch.float32", 2),
                               Row("T.b.0.forward.input.0", "torch.float32", 3)};
  std::vector<OpRow> golden = {Row("T.a.0.forward.input.0", "torch.bfloat16", 4),
                              Row("T.z.0.forward.input.0", "torch.bfloat16", 5)};
  const std::vector<RowPair> pairs = {{0, 0}, {1, 0}, {2, std::nullopt}};
  const std::vector<ResultRow> rows = BuildResultRows(&target, &golden, pairs);
  ASSERT_EQ(rows.size(), 3u);
  ExpectGolden(rows[0], "T.a.0.forward.input.0", 4);
  ExpectGolden(rows[1], "T.a.0.forward.input.0", 4);
  EXPECT_EQ(rows[1].target_name, "T.a.0.forward.input.0");
  EXPECT_EQ(rows[1].target_stats[0], Cell::Float(2));
  EXPECT_EQ(rows[1].api, "T.a.0.forward");
  EXPECT_FALSE(rows[2].matched);
  EXPECT_EQ(rows[2].golden_name, "N/A");
  EXPECT_EQ(rows[2].golden_stats[0], Cell::NA());
  EXPECT_EQ(rows[2].golden_data_name, "N/A");
}

// Enough pairs to span many parallel blocks, all on one golden row: every copy must read it whole.
TEST(ResultBuilderTest, OneGoldenRowSharedAcrossParallelBlocksReachesEveryPair) {
  constexpr size_t kRows = 50000;
  std::vector<OpRow> target;
  std::vector<RowPair> pairs;
  for (size_t i = 0; i < kRows; ++i) {
    target.push_back(Row("T.op." + std::to_string(i) + ".forward.input.0", "torch.float32", 1));
    pairs.push_back({i, 0});
  }
  std::vector<OpRow> golden = {Row("Functional.shared_bench_row_name.0.forward.input.0", "torch.bfloat16", 9)};
  const std::vector<ResultRow> rows = BuildResultRows(&target, &golden, pairs);
  ASSERT_EQ(rows.size(), kRows);
  for (const ResultRow& r : rows) ExpectGolden(r, "Functional.shared_bench_row_name.0.forward.input.0", 9);
  EXPECT_EQ(rows[kRows - 1].target_name, "T.op.49999.forward.input.0");
}

}  // namespace
}  // namespace msprobe::compare
