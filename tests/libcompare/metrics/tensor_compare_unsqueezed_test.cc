// The kernel-dump compare's variant of the tensor metrics: no squeeze, so a [1] vector is compared as
// a vector and only its Cosine is "unsupported" (docs/kernel_dump.md §6.2). Expected values are numpy's
// for n = [2.0], b = [1.0]: |n-b| = 1, |n-b|/|b| = 1.
#include <gtest/gtest.h>

#include "msprobe/compare/table/result_row.h"
#include "msprobe/compare/metrics/tensor_compare.h"
#include "msprobe/dump/formats/npy_reader.h"
#include "msprobe/dump/formats/npy_writer.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

TensorInfo WriteVector(const testing::TempDir& tmp, const std::string& name, float value) {
  const std::string path = tmp.Path(name);
  EXPECT_TRUE(WriteNpy(path, DType::kF32, {1}, Bytes(reinterpret_cast<const std::byte*>(&value), sizeof(value))).ok());
  auto info = ReadNpyFile(path);
  EXPECT_TRUE(info.ok());
  return *info;
}

TEST(TensorCompareUnsqueezedTest, LengthOneVectorHasMetricsButNoCosine) {
  testing::TempDir tmp;
  const TensorInfo target = WriteVector(tmp, "n.npy", 2.0f), golden = WriteVector(tmp, "b.npy", 1.0f);
  TensorCompareOptions options;
  options.squeeze = false;
  const auto cells = CompareTensorInfos(target, golden, options);
  EXPECT_TRUE(cells[kCosine].IsText("unsupported"));
  EXPECT_EQ(cells[kEucDist].number(), 1.0);
  EXPECT_EQ(cells[kMaxAbsErr].number(), 1.0);
  EXPECT_EQ(cells[kMaxRelativeErr].number(), 1.0);
  EXPECT_EQ(cells[kOneThousandth].number(), 0.0);
  EXPECT_EQ(cells[kFiveThousandths].number(), 0.0);
  // G3 squeezes the same pair to 0-d: Cosine, EucDist and the ratios are unsupported (docs/compare.md §4.2).
  const auto squeezed = CompareTensorInfos(target, golden);
  EXPECT_TRUE(squeezed[kEucDist].IsText("unsupported"));
  EXPECT_EQ(squeezed[kMaxAbsErr].number(), 1.0);
}

}  // namespace
}  // namespace msprobe::compare
