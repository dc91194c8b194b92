#include "msprobe/dump/tensor/dtype.h"

#include <gtest/gtest.h>

#include <cmath>

#include "msprobe/dump/tensor/element_types.h"

namespace msprobe {
namespace {

TEST(DTypeTest, FrameworkNamesMapToOneEnum) {
  EXPECT_EQ(FromDumpName("torch.bfloat16"), DType::kBF16);
  EXPECT_EQ(FromDumpName("BFloat16"), DType::kBF16);
  EXPECT_EQ(FromDumpName("torch.float8_e4m3fn"), DType::kF8E4M3FN);
  EXPECT_EQ(FromDumpName("UInt8"), DType::kU8);
  EXPECT_EQ(FromTorchName("float8_e5m2"), DType::kF8E5M2);  // pickle GLOBAL form
  EXPECT_EQ(FromTorchName("torch.half"), DType::kF16);
  EXPECT_EQ(FromTorchStorage("BFloat16Storage"), DType::kBF16);
  EXPECT_EQ(FromTorchStorage("QInt8Storage"), std::nullopt);
  EXPECT_EQ(FromDumpName("torch.float128"), std::nullopt);
}

TEST(DTypeTest, ProtoNumbersFollowKernelDumpTable) {
  EXPECT_EQ(FromProtoId(1), DType::kF32);
  EXPECT_EQ(FromProtoId(2), DType::kF16);
  EXPECT_EQ(FromProtoId(27), DType::kBF16);
  EXPECT_EQ(FromProtoId(28), DType::kI4);
  EXPECT_EQ(FromProtoId(18), DType::kI8);   // DT_QINT8
  EXPECT_EQ(FromProtoId(21), DType::kU8);   // DT_QUINT8
  EXPECT_EQ(FromProtoId(23), DType::kI64);  // DT_RESOURCE
  EXPECT_EQ(FromProtoId(35), DType::kF8E4M3FN);
  EXPECT_EQ(FromProtoId(13), std::nullopt);  // DT_STRING is not decoded
}

TEST(DTypeTest, NpyDescrsAndByteOrder) {
  bool big = true;
  EXPECT_EQ(FromNpyDescr("<f4", &big), DType::kF32);
  EXPECT_FALSE(big);
  EXPECT_EQ(FromNpyDescr(">i8", &big), DType::kI64);
  EXPECT_TRUE(big);
  EXPECT_EQ(FromNpyDescr("|b1", &big), DType::kBool);
  EXPECT_FALSE(big);
  EXPECT_EQ(FromNpyDescr("<c16", &big), DType::kC128);
  EXPECT_EQ(FromNpyDescr("<U3", &big), std::nullopt);
  EXPECT_EQ(FromNpyDescr("|O", &big), std::nullopt);
}

TEST(DTypeTest, ItemSizes) {
  EXPECT_EQ(ByteSize(DType::kF32, 3), 12u);
  EXPECT_EQ(ByteSize(DType::kC128, 2), 32u);
  EXPECT_EQ(ByteSize(DType::kI4, 3), 2u);  // two per byte, rounded up
  EXPECT_EQ(ByteSize(DType::kBF16, 5), 10u);
}

// Expected values are the IEEE/OCP definitions, checked against torch for float8 (see
// tests/data/gen_fixtures.py for the fixture files that exercise the readers).
TEST(DTypeTest, HalfPrecisionDecoding) {
  EXPECT_EQ(ToDouble(Float16{0x3c00}), 1.0);
  EXPECT_EQ(ToDouble(Float16{0xc000}), -2.0);
  EXPECT_EQ(ToDouble(Float16{0x0001}), std::ldexp(1.0, -24));  // smallest subnormal
  EXPECT_EQ(ToDouble(Float16{0x7bff}), 65504.0);
  EXPECT_TRUE(std::isinf(ToDouble(Float16{0xfc00})));
  EXPECT_TRUE(std::isnan(ToDouble(Float16{0x7e00})));
  EXPECT_EQ(ToDouble(BFloat16{0x3f80}), 1.0);
  EXPECT_EQ(ToDouble(BFloat16{0xc2f7}), -123.5);
}

TEST(DTypeTest, Float8Decoding) {
  EXPECT_EQ(ToDouble(Float8E4M3FN{0x7e}), 448.0);  // largest finite
  EXPECT_TRUE(std::isnan(ToDouble(Float8E4M3FN{0x7f})));
  EXPECT_TRUE(std::isnan(ToDouble(Float8E4M3FN{0xff})));
  EXPECT_EQ(ToDouble(Float8E4M3FN{0x01}), std::ldexp(1.0, -9));
  EXPECT_EQ(ToDouble(Float8E5M2{0x7b}), 57344.0);
  EXPECT_EQ(ToDouble(Float8E5M2{0xfc}), -INFINITY);
  EXPECT_TRUE(std::isnan(ToDouble(Float8E5M2{0x7d})));
  EXPECT_EQ(ToDouble(Float8E8M0{127}), 1.0);
  EXPECT_EQ(ToDouble(Float8E4M3FNUZ{0x7f}), 240.0);
  EXPECT_TRUE(std::isnan(ToDouble(Float8E4M3FNUZ{0x80})));
}

TEST(DTypeTest, Int4NibblesLowFirstSignExtended) {
  const std::byte packed[] = {std::byte{0x8f}, std::byte{0x07}};  // elements -1, -8, 7, 0
  EXPECT_EQ(ElementToDouble(DType::kI4, packed, 0), -1.0);
  EXPECT_EQ(ElementToDouble(DType::kI4, packed, 1), -8.0);
  EXPECT_EQ(ElementToDouble(DType::kI4, packed, 2), 7.0);
  EXPECT_EQ(ElementToDouble(DType::kI4, packed, 3), 0.0);
}

}  // namespace
}  // namespace msprobe
