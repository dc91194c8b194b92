// Expected cells: msprobe G3 CSV values (dist2_da/cmp), docs/compare.md §4.3 verified examples and its
// rule table, and CPython's str() of the float differences (printed by python3).
#include "msprobe/compare/metrics/stats_diff.h"

#include <gtest/gtest.h>

#include <cmath>

namespace msprobe::compare {
namespace {

// One statistic pair in slot Max; the other three are equal so they read "0".
std::pair<std::string, std::string> MaxDiff(const Cell& target, const Cell& golden) {
  ResultRow row;
  row.golden_name = std::string("Torch.x.0.forward.input.0");  // move-assign: GCC 12 -Wrestrict false positive
  row.target_stats = {target, Cell::Int(0), Cell::Int(0), Cell::Int(0)};
  row.golden_stats = {golden, Cell::Int(0), Cell::Int(0), Cell::Int(0)};
  FillStatsDiff(&row);
  EXPECT_EQ(row.metrics.size(), 8u);
  for (int i : {kMinDiff, kMeanDiff, kNormDiff, kMinRel, kMeanRel, kNormRel}) EXPECT_TRUE(row.metrics[i].IsText("0"));
  return {row.metrics[kMaxDiff].ToPython(), row.metrics[kMaxRel].ToPython()};
}

using Pair = std::pair<std::string, std::string>;

TEST(StatsDiffTest, NumbersGiveDifferenceAndPercentString) {
  // Functional.conv2d.0.forward.output.0 in dist2_da/cmp/compare_result_rank0_*.csv.
  EXPECT_EQ(MaxDiff(Cell::Float(1.140625), Cell::Float(1.1344949007034302)),
            Pair("0.006130099296569824", "0.540337315995773%"));
  // §4.3: 0-d float32 3.0 vs 2.0 and Python ints 3 vs 2 both give 1.0 / 50.0%.
  EXPECT_EQ(MaxDiff(Cell::Float(3.0), Cell::Float(2.0)), Pair("1.0", "50.0%"));
  EXPECT_EQ(MaxDiff(Cell::Int(3), Cell::Int(2)), Pair("1.0", "50.0%"));
}

TEST(StatsDiffTest, NumbersAreReparsedTheWayPandasDoes) {
  // Tensor.add_.7.forward.output.0 in dist2_da/cmp/compare_result_rank1_*.csv: pandas' to_numeric
  // of the repr strings is not correctly rounded, so msprobe's diff is not 0.1427183300256729 -
  // 0.14272525906562805 in exact float64 (-6.92903995513916e-06).
  EXPECT_EQ(MaxDiff(Cell::Float(0.1427183300256729), Cell::Float(0.14272525906562805)),
            Pair("-6.929039955083649e-06", "0.0048548098636818976%"));
  EXPECT_EQ(MaxDiff(Cell::Float(-0.17099416255950928), Cell::Float(-0.17099139094352722)),
            Pair("-2.771615982000153e-06", "0.001620909664928994%"));
}

TEST(StatsDiffTest, DifferenceIsAFloatCellAndRelativeErrorText) {
  ResultRow row;
  row.target_stats = {Cell::Float(3.0), Cell::Int(1), Cell::Int(1), Cell::Int(1)};
  row.golden_stats = {Cell::Float(2.0), Cell::Int(1), Cell::Int(1), Cell::Int(1)};
  FillStatsDiff(&row);
  EXPECT_EQ(row.metrics[kMaxDiff], Cell::Float(1.0));
  EXPECT_TRUE(row.metrics[kMaxRel].IsText("50.0%"));
}

TEST(StatsDiffTest, ZeroGoldenGivesInfRelativeError) {
  EXPECT_EQ(MaxDiff(Cell::Float(1e-9), Cell::Float(0.0)), Pair("1e-09", "inf"));
  EXPECT_EQ(MaxDiff(Cell::Float(1e-9), Cell::Int(0)), Pair("1e-09", "inf"));
}

TEST(StatsDiffTest, EqualStringsGiveZeroEvenForNanNoneAndText) {
  EXPECT_EQ(MaxDiff(Cell::Nan(), Cell::Nan()), Pair("0", "0"));
  EXPECT_EQ(MaxDiff(Cell::None(), Cell::None()), Pair("0", "0"));
  EXPECT_EQ(MaxDiff(Cell::Text("abc"), Cell::Text("abc")), Pair("0", "0"));
  EXPECT_EQ(MaxDiff(Cell::Float(1e-05), Cell::Float(1e-05)), Pair("0", "0"));
  // str(1.0) != str(1): unequal strings, so the numbers are subtracted.
  EXPECT_EQ(MaxDiff(Cell::Float(1.0), Cell::Int(1)), Pair("0.0", "0.0%"));
}

TEST(StatsDiffTest, UnmatchedGoldenGivesNa) {
  EXPECT_EQ(MaxDiff(Cell::Float(2.0), Cell::NA()), Pair("N/A", "N/A"));
  EXPECT_EQ(MaxDiff(Cell::Nan(), Cell::NA()), Pair("N/A", "N/A"));
  EXPECT_EQ(MaxDiff(Cell::Text("cpu"), Cell::NA()), Pair("N/A", "N/A"));
}

TEST(StatsDiffTest, RuleTableForNanAndInfinities) {
  EXPECT_EQ(MaxDiff(Cell::Float(1.5), Cell::Nan()), Pair("Nan", "Nan"));
  EXPECT_EQ(MaxDiff(Cell::Text("nan"), Cell::Float(1.5)), Pair("Nan", "Nan"));
  EXPECT_EQ(MaxDiff(Cell::Float(INFINITY), Cell::Nan()), Pair("Nan", "Nan"));
  EXPECT_EQ(MaxDiff(Cell::Float(1.5), Cell::Float(INFINITY)), Pair("-inf", "-inf"));
  EXPECT_EQ(MaxDiff(Cell::Float(1.5), Cell::Float(-INFINITY)), Pair("inf", "inf"));
  EXPECT_EQ(MaxDiff(Cell::Float(INFINITY), Cell::Float(1.5)), Pair("inf", "inf"));
  EXPECT_EQ(MaxDiff(Cell::Float(-INFINITY), Cell::Float(1.5)), Pair("-inf", "-inf"));
  EXPECT_EQ(MaxDiff(Cell::Float(INFINITY), Cell::Float(-INFINITY)), Pair("inf", "inf"));
  EXPECT_EQ(MaxDiff(Cell::Float(-INFINITY), Cell::Float(INFINITY)), Pair("-inf", "-inf"));
  // Same class, different spelling: the default N/A.
  EXPECT_EQ(MaxDiff(Cell::Float(INFINITY), Cell::Text("INF")), Pair("N/A", "N/A"));
  EXPECT_EQ(MaxDiff(Cell::Text("inf"), Cell::Float(INFINITY)), Pair("0", "0"));
}

TEST(StatsDiffTest, RuleTableForDevicesAndOtherStrings) {
  EXPECT_EQ(MaxDiff(Cell::Text("cpu"), Cell::Float(1.5)), Pair("Diff", "Diff"));
  EXPECT_EQ(MaxDiff(Cell::Float(1.5), Cell::Text("npu:0")), Pair("Diff", "Diff"));
  EXPECT_EQ(MaxDiff(Cell::Text("cpu"), Cell::Text("CUDA:1")), Pair("N/A", "N/A"));
  EXPECT_EQ(MaxDiff(Cell::Text("cpu"), Cell::Nan()), Pair("Diff", "Diff"));
  EXPECT_EQ(MaxDiff(Cell::None(), Cell::Float(2.0)), Pair("Diff", "Diff"));
  EXPECT_EQ(MaxDiff(Cell::Text("abc"), Cell::Text("abd")), Pair("Diff", "Diff"));
  EXPECT_EQ(MaxDiff(Cell::Text("True"), Cell::Text("False")), Pair("Diff", "Diff"));
  EXPECT_EQ(MaxDiff(Cell::Bool(true), Cell::Int(1)), Pair("Diff", "Diff"));
}

TEST(StatsDiffTest, NumericStringsAreNumbers) {
  // src/dst and group ranks are recorded as str(value); "0" parses as a number.
  EXPECT_EQ(MaxDiff(Cell::Text("1"), Cell::Text("0")), Pair("1.0", "inf"));
  EXPECT_EQ(MaxDiff(Cell::Text("3"), Cell::Float(2.0)), Pair("1.0", "50.0%"));
  EXPECT_EQ(MaxDiff(Cell::Text("[0, 1]"), Cell::Text("[0, 2]")), Pair("Diff", "Diff"));
  EXPECT_EQ(MaxDiff(Cell::Text("0x10"), Cell::Float(2.0)), Pair("Diff", "Diff"));
}

TEST(StatsDiffTest, Md5CellsUseNaForUnmatchedGolden) {
  ResultRow row;
  row.golden_name = "Functional.relu.0.forward.input.0";
  FillMd5(&row, "1a2b3c4d", "1a2b3c4e");
  ASSERT_EQ(row.metrics.size(), 2u);
  EXPECT_TRUE(row.metrics[0].IsText("1a2b3c4d"));
  EXPECT_TRUE(row.metrics[1].IsText("1a2b3c4e"));
  row.golden_name = "N/A";
  FillMd5(&row, "1a2b3c4d", "ffffffff");
  EXPECT_TRUE(row.metrics[1].IsText("N/A"));
  EXPECT_TRUE(IsUnmatched(row));
}

}  // namespace
}  // namespace msprobe::compare
