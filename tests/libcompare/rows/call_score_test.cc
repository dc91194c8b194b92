// How alike two dumped calls are (--align, docs/compare.md §3.8): rows by their place in the call,
// msprobe's dtype rule, and the score's parts.
#include "rows/call_score_internal.h"

#include <gtest/gtest.h>

namespace msprobe::compare::internal {
namespace {

OpRow Tensor(const std::string& api, const std::string& place, double max, double min, double mean, double norm,
             const std::string& dtype = "torch.float32", const std::string& shape = "[4, 8]") {
  OpRow row;
  row.api = api;
  row.name = api + place;
  row.state = place.starts_with(".output") ? RowState::kOutput : RowState::kInput;
  row.dtype = dtype;
  row.shape = shape;
  row.stats = {Cell::Float(max), Cell::Float(min), Cell::Float(mean), Cell::Float(norm)};
  return row;
}

OpRow Scalar(const std::string& api, const std::string& place, int64_t value) {
  OpRow row;
  row.api = api;
  row.name = api + place;
  row.dtype = "<class 'int'>";
  row.shape = "[]";
  row.stats = {Cell::Int(value), Cell::Int(value), Cell::Int(value), Cell::Int(value)};
  return row;
}

// A softmax call: an input, its dim, an output; `scale` scales every statistic.
std::vector<OpRow> Softmax(const std::string& api, double scale = 1) {
  return {Tensor(api, ".input.0", 2.5 * scale, -1.5 * scale, 0.1 * scale, 9 * scale), Scalar(api, ".input.dim", -1),
          Tensor(api, ".output.0", 0.9 * scale, 0.01 * scale, 0.125 * scale, 1.4 * scale)};
}

float Score(const std::vector<OpRow>& a, const std::vector<OpRow>& b, bool same_op = true) {
  return CallScore(a, {0, a.size()}, b, {0, b.size()}, same_op, false, false);
}

TEST(CallScoreTest, RowsPairByTheirPlaceInTheCall) {
  std::vector<OpRow> a = Softmax("Functional.softmax.0.forward");
  std::vector<OpRow> b = Softmax("Torch.softmax.2.forward");
  std::swap(b[0], b[2]);  // the order of rows does not matter, their place does
  EXPECT_EQ(PairCallRows(a, {0, 3}, b, {0, 3}, false),
            (std::vector<std::pair<size_t, size_t>>{{0, 2}, {1, 1}, {2, 0}}));
}

TEST(CallScoreTest, RowsWhoseDtypesMsprobeWouldNotPairStayApart) {
  std::vector<OpRow> a = Softmax("Functional.softmax.0.forward");
  std::vector<OpRow> b = Softmax("Torch.softmax.0.forward");
  b[0].dtype = "torch.float64";  // float64 against float32: not compatible (docs/compare.md §3.2.4)
  b[2].dtype = "torch.bfloat16";  // float32 against bfloat16: compatible
  EXPECT_EQ(PairCallRows(a, {0, 3}, b, {0, 3}, false), (std::vector<std::pair<size_t, size_t>>{{1, 1}, {2, 2}}));
  // Across frameworks the coarse classes decide.
  a[0].dtype = "Float16";
  b[0].dtype = "torch.float32";
  EXPECT_EQ(PairCallRows(a, {0, 3}, b, {0, 3}, true).size(), 3u);
}

TEST(CallScoreTest, TheSameCallUnderAnotherNameScoresOne) {
  EXPECT_FLOAT_EQ(Score(Softmax("Functional.softmax.0.forward"), Softmax("Torch.softmax.0.forward")), 1.f);
}

TEST(CallScoreTest, ValuesOfAnotherDeviceStayAboveTheDefaultThreshold) {
  // Every statistic off by a relative 1e-3, then 1e-2.
  for (const double off : {1e-3, 1e-2}) {
    const float score = Score(Softmax("Functional.softmax.0.forward"), Softmax("Torch.softmax.0.forward", 1 + off));
    EXPECT_GT(score, 0.75f) << off;
    EXPECT_LT(score, 1.f) << off;
  }
}

TEST(CallScoreTest, TheSameOpOnOtherValuesScoresBelowTheDefaultThreshold) {
  // Another layer's softmax: the same shapes, its values 30% larger.
  EXPECT_LT(Score(Softmax("Functional.softmax.0.forward"), Softmax("Torch.softmax.1.forward", 1.3)), 0.75f);
}

TEST(CallScoreTest, AnotherOpWithTheSameValuesScoresOnValuesAndShapes) {
  const float score = Score(Softmax("Functional.softmax.0.forward"), Softmax("Torch.sfmx.0.forward"), false);
  EXPECT_FLOAT_EQ(score, 0.8f);
}

TEST(CallScoreTest, CallsOfConstantsAloneAreToldApartByNothing) {
  // Tensor.add_ on a step counter: an int64 0 plus 1, as every BatchNorm makes it.
  const auto counter = [](const std::string& api) {
    return std::vector<OpRow>{Tensor(api, ".input.0", 0, 0, 0, 0, "torch.int64", "[]"), Scalar(api, ".input.1", 1),
                              Tensor(api, ".output.0", 1, 1, 1, 1, "torch.int64", "[]")};
  };
  EXPECT_LT(Score(counter("Tensor.add_.3.forward"), counter("Tensor.add_.5.forward")), 0.75f);
}

TEST(CallScoreTest, ValueWeightTellsVaryingTensorsFromConstantsScalarsAndNone) {
  EXPECT_EQ(ValueWeight(Tensor("A", ".input.0", 2, -1, 0, 3), false), 1.f);
  EXPECT_LT(ValueWeight(Tensor("A", ".input.0", 1, 1, 1, 4), false), 0.5f);
  EXPECT_LT(ValueWeight(Scalar("A", ".input.1", 3), false), 0.5f);
  OpRow none;
  none.dtype = "None";
  none.stats = {Cell::None(), Cell::None(), Cell::None(), Cell::None()};
  EXPECT_EQ(ValueWeight(none, false), 0.f);
}

TEST(CallScoreTest, EqualMd5SumsAreEqualTensorsOnlyInAnMd5Dump) {
  OpRow a = Tensor("A", ".input.0", 2, -1, 0, 3), b = Tensor("B", ".input.0", 20, -10, 0, 30);
  a.md5 = b.md5 = "00000000";  // a statistics dump's tensors all get the CRC of an empty value
  EXPECT_LT(CompareValues(a, b, false).closeness, 0.5f);
  EXPECT_EQ(CompareValues(a, b, true).closeness, 1.f);
}

TEST(CallScoreTest, AMeanNearZeroIsComparedToTheValuesAroundIt) {
  // Means of 1e-7 and -1e-7 in tensors reaching 3: equal for any purpose.
  const OpRow a = Tensor("A", ".output.0", 3, -3, 1e-7, 50), b = Tensor("B", ".output.0", 3, -3, -1e-7, 50);
  EXPECT_GT(CompareValues(a, b, false).closeness, 0.99f);
}

TEST(CallScoreTest, DtypeClassesAcrossFrameworks) {
  EXPECT_EQ(DtypeClass("torch.bfloat16"), "float");
  EXPECT_EQ(DtypeClass("Float16"), "float");
  EXPECT_EQ(DtypeClass("UInt8"), "int");
  EXPECT_EQ(DtypeClass("torch.bool"), "bool");
  EXPECT_FALSE(IsTensorDtype("<class 'int'>"));
  EXPECT_FALSE(IsTensorDtype("None"));
  EXPECT_TRUE(IsTensorDtype("BFloat16"));
}

}  // namespace
}  // namespace msprobe::compare::internal
