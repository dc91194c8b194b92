// np.matmul(value, calibration) as msprobe's right_matmul makes it (docs/compare.md §4.2 step 3): shapes,
// numpy's promoted dtype, the summation order, and what is refused.
#include <gtest/gtest.h>

#include <vector>

#include "metrics/right_matmul_internal.h"
#include "msprobe/dump/formats/npy_writer.h"
#include "test_support.h"

namespace msprobe::compare::internal {
namespace {

constexpr ScalarType kF16{ScalarType::kFloat, 16}, kF32{ScalarType::kFloat, 32}, kF64{ScalarType::kFloat, 64},
    kI32{ScalarType::kSigned, 32}, kI8{ScalarType::kSigned, 8};

TEST(RightMatmulTest, MatrixAndVectorShapes) {
  NumpyArray value{kF32, {2, 3}, {1, 2, 3, 4, 5, 6}};
  ASSERT_TRUE(RightMultiply({kF32, {3, 2}, {1, 0, 0, 1, 1, 1}}, &value).ok());
  EXPECT_EQ(value.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(value.values, (std::vector<double>{4, 5, 10, 11}));
  NumpyArray vector{kF32, {3}, {1, 2, 3}};
  ASSERT_TRUE(RightMultiply({kF32, {3, 1}, {1, 1, 1}}, &vector).ok());
  EXPECT_EQ(vector.shape, (std::vector<int64_t>{1}));
  EXPECT_EQ(vector.values, (std::vector<double>{6}));
  NumpyArray batch{kF32, {2, 1, 2}, {1, 2, 3, 4}};
  ASSERT_TRUE(RightMultiply({kF32, {2}, {10, 1}}, &batch).ok());  // a 1-d calibration drops the last axis
  EXPECT_EQ(batch.shape, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(batch.values, (std::vector<double>{12, 34}));
  NumpyArray dot{kF32, {2}, {1, 2}};
  ASSERT_TRUE(RightMultiply({kF32, {2}, {3, 4}}, &dot).ok());
  EXPECT_TRUE(dot.shape.empty());
  EXPECT_EQ(dot.values, (std::vector<double>{11}));
}

// numpy's type: float16 values with a float32 matrix multiply in float32, int8 too; int32 in float64.
TEST(RightMatmulTest, ProductTypeIsNumpysPromotion) {
  NumpyArray half{kF16, {1, 1}, {0.5}};
  ASSERT_TRUE(RightMultiply({kF32, {1, 1}, {3}}, &half).ok());
  EXPECT_EQ(half.type, kF32);
  NumpyArray i8{kI8, {1}, {3}};
  ASSERT_TRUE(RightMultiply({kF32, {1, 1}, {0.1f}}, &i8).ok());
  EXPECT_EQ(i8.type, kF32);
  EXPECT_EQ(i8.values[0], static_cast<double>(3.0f * 0.1f));
  NumpyArray i32{kI32, {1}, {3}};
  ASSERT_TRUE(RightMultiply({kF32, {1, 1}, {static_cast<double>(0.1f)}}, &i32).ok());
  EXPECT_EQ(i32.type, kF64);
  EXPECT_EQ(i32.values[0], 3 * static_cast<double>(0.1f));
}

// Each element is summed over k from the first, in float32: 1e8 + 1 - 1e8 gives 0, not 1.
TEST(RightMatmulTest, Float32SumsInNumpysOrder) {
  NumpyArray value{kF32, {1, 3}, {1e8, 1, -1e8}};
  ASSERT_TRUE(RightMultiply({kF32, {3, 1}, {1, 1, 1}}, &value).ok());
  EXPECT_EQ(value.values[0], 0.0);
  NumpyArray wide{kF64, {1, 3}, {1e8, 1, -1e8}};
  ASSERT_TRUE(RightMultiply({kF32, {3, 1}, {1, 1, 1}}, &wide).ok());
  EXPECT_EQ(wide.values[0], 1.0);
}

TEST(RightMatmulTest, WhatCannotBeMultipliedLeavesTheValue) {
  NumpyArray value{kF32, {2, 3}, {1, 2, 3, 4, 5, 6}};
  const NumpyArray before = value;
  EXPECT_STATUS(RightMultiply({kF32, {2, 2}, {1, 0, 0, 1}}, &value), Code::kInvalidInput, "do not match");
  EXPECT_STATUS(RightMultiply({kF32, {}, {2}}, &value), Code::kInvalidInput, "0-d");
  EXPECT_STATUS(RightMultiply({kF32, {1, 3, 2}, std::vector<double>(6)}, &value), Code::kUnsupported, "2 dimensions");
  NumpyArray half{kF16, {1, 1}, {1}};
  EXPECT_STATUS(RightMultiply({kF16, {1, 1}, {1}}, &half), Code::kUnsupported, "numpy multiplies in float16");
  NumpyArray ints{kI32, {1, 1}, {1}};
  EXPECT_STATUS(RightMultiply({kI32, {1, 1}, {1}}, &ints), Code::kUnsupported, "int32");
  EXPECT_EQ(value.values, before.values);
  EXPECT_EQ(value.shape, before.shape);
}

TEST(RightMatmulTest, CalibrationFilesThatCannotBeUsedAreWarnedOnce) {
  testing::TempDir dir;
  const std::vector<float> eye = {1, 0, 0, 1};
  ASSERT_TRUE(WriteNpy(dir.Path("eye.npy"), DType::kF32, {2, 2},
                       Bytes(reinterpret_cast<const std::byte*>(eye.data()), eye.size() * sizeof(float)))
                  .ok());
  RightMatmulMap map;
  map.target = {{"a.pt", dir.Path("eye.npy")}, {"b.pt", dir.Path("missing.npy")}, {"c.pt", dir.Path("eye.txt")}};
  map.golden = {{"a.pt", dir.Path("eye.npy")}};
  std::vector<std::string> warnings;
  const RightMatmul rm = RightMatmul::Load({map}, &warnings);
  EXPECT_EQ(warnings.size(), 2u);
  ASSERT_EQ(rm.Of(true, "a.pt").size(), 1u);
  EXPECT_TRUE(rm.Of(true, "a.pt")[0]->array.ok());
  EXPECT_EQ(rm.Of(true, "a.pt")[0], rm.Of(false, "a.pt")[0]);  // one load per file
  EXPECT_FALSE(rm.Of(true, "b.pt")[0]->array.ok());
  EXPECT_TRUE(rm.Of(false, "b.pt").empty());
  EXPECT_TRUE(RightMatmul::Load({RightMatmulMap{}}, &warnings).empty());
}

}  // namespace
}  // namespace msprobe::compare::internal
