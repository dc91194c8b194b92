// summary.json's parts: the gate levels, the first offending row, the worst rows by the main metric.
#include "msprobe/compare/output/summary_report.h"

#include <gtest/gtest.h>

#include <cmath>

namespace msprobe::compare {
namespace {

ResultRow Row(const std::string& name, Verdict result, std::vector<Cell> metrics) {
  ResultRow r;
  r.target_name = name;
  r.api = "Torch.add.0.forward";
  r.result = result;
  r.metrics = std::move(metrics);
  return r;
}

std::vector<Cell> Norm(const std::string& norm_rel) {
  std::vector<Cell> m(8, Cell::Text("0"));
  m[kNormRel] = Cell::Text(norm_rel);
  return m;
}

TEST(SummaryReportTest, RowRefNamesRowAndMessage) {
  ResultTable table;
  table.rows = {Row("a", Verdict::kPass, Norm("0")), Row("b", Verdict::kWarning, Norm("0")), Row("c", Verdict::kError, Norm("0"))};
  table.rows[2].err_messages = {"error: x"};
  const RowRef error = MakeRowRef(table, 2, "r.csv");
  EXPECT_EQ(error.row, 2u);
  EXPECT_EQ(error.target_name, "c");
  EXPECT_EQ(error.api, "Torch.add.0.forward");
  EXPECT_EQ(error.result, Verdict::kError);
  EXPECT_EQ(error.err_message, "[\"error: x\"]");
  EXPECT_EQ(error.file, "r.csv");
}

TEST(SummaryReportTest, StatisticsWorstIsHighestNormRelativeErrWithInfFirst) {
  ResultTable table;
  table.mode = CompareMode::kSummary;
  table.rows = {Row("a", Verdict::kPass, Norm("1.5%")), Row("b", Verdict::kPass, Norm("N/A")), Row("c", Verdict::kPass, Norm("inf")),
                Row("d", Verdict::kPass, Norm("30.0%")), Row("e", Verdict::kPass, Norm("0"))};
  const std::vector<WorstRow> worst = WorstRows(table, 3);
  ASSERT_EQ(worst.size(), 3u);
  EXPECT_EQ(worst[0].target_name, "c");
  EXPECT_TRUE(std::isinf(worst[0].value));
  EXPECT_EQ(worst[1].target_name, "d");
  EXPECT_DOUBLE_EQ(worst[1].value, 0.3);
  EXPECT_EQ(worst[2].target_name, "a");
}

TEST(SummaryReportTest, TensorWorstIsLowestCosine) {
  ResultTable table;
  table.mode = CompareMode::kTensor;
  const auto cos = [](Cell c) { std::vector<Cell> m(6, Cell::Text("")); m[kCosine] = c; return m; };
  table.rows = {Row("a", Verdict::kPass, cos(Cell::Float(0.99))), Row("b", Verdict::kPass, cos(Cell::Text("unsupported"))),
                Row("c", Verdict::kPass, cos(Cell::Float(0.5))), Row("d", Verdict::kPass, cos(Cell::Float(0.5)))};
  const std::vector<WorstRow> worst = WorstRows(table, 20);
  ASSERT_EQ(worst.size(), 3u);
  EXPECT_EQ(worst[0].target_name, "c");  // ties stay in row order
  EXPECT_EQ(worst[1].target_name, "d");
  EXPECT_EQ(worst[2].target_name, "a");
  EXPECT_STREQ(MainMetricName(CompareMode::kMd5), "");
}

}  // namespace
}  // namespace msprobe::compare
