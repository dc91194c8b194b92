#include "msprobe/dump/kernel/kernel_dump_name.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace msprobe {
namespace {

// Names from docs/kernel_dump.md §4.2's table and the seed's MindSpore dump doc.
TEST(KernelDumpNameTest, MindSporeCurrentWithDtype) {
  Result<KernelDumpName> n = ParseKernelDumpName("Conv2D.Conv2D-op12.0.0.1623124369613540.output.0.DefaultFormat.float16.npy");
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(n->op_type, "Conv2D");
  EXPECT_EQ(n->op_name, "Conv2D-op12");
  EXPECT_EQ(n->task_id, 0u);
  EXPECT_EQ(n->stream_id, 0u);
  EXPECT_EQ(n->timestamp, 1623124369613540u);
  EXPECT_FALSE(n->is_input);
  EXPECT_EQ(n->slot, 0u);
  EXPECT_EQ(n->format, "DefaultFormat");
  EXPECT_EQ(n->dtype_label, "float16");
  EXPECT_EQ(n->dtype, DType::kF16);
  EXPECT_TRUE(n->npy);
}

TEST(KernelDumpNameTest, MindSporeOlderWithoutDtype) {
  Result<KernelDumpName> n = ParseKernelDumpName("Conv2D.Conv2D-op12.0.0.1623124369613540.output.0.DefaultFormat.npy");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->format, "DefaultFormat");
  EXPECT_EQ(n->dtype_label, "");
  EXPECT_FALSE(n->dtype.has_value());
}

TEST(KernelDumpNameTest, MindSporeConstant) {
  Result<KernelDumpName> n = ParseKernelDumpName("Parameter.data-3.0.0.1623124369613540.output.0.DefaultFormat.bfloat16.npy");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->op_type, "Parameter");
  EXPECT_EQ(n->op_name, "data-3");
  EXPECT_EQ(n->dtype, DType::kBF16);
}

TEST(KernelDumpNameTest, MsprobeL2UpperCaseDtype) {
  Result<KernelDumpName> n =
      ParseKernelDumpName("Cast.Default_network-WithLossCell__Cast-op0.9.10.1735011096426349.input.0.ND.FLOAT.npy");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->task_id, 9u);
  EXPECT_EQ(n->stream_id, 10u);
  EXPECT_TRUE(n->is_input);
  EXPECT_EQ(n->format, "ND");
  EXPECT_EQ(n->dtype, DType::kF32);
}

TEST(KernelDumpNameTest, MsprobeL2RawFileTakesTheNamesDtype) {
  Result<KernelDumpName> n = ParseKernelDumpName("Sub.Default_Sub-op3.2.7.161243956333802.input.1.ND.BF16");
  ASSERT_TRUE(n.ok());
  EXPECT_FALSE(n->npy);
  EXPECT_EQ(n->slot, 1u);
  EXPECT_EQ(n->dtype, DType::kBF16);
  EXPECT_EQ(ParseKernelDumpName("X.y.0.0.1.output.0.ND.DOUBLE")->dtype, DType::kF64);
}

TEST(KernelDumpNameTest, MsaccucmpNameWithoutFormat) {
  Result<KernelDumpName> n = ParseKernelDumpName("Conv2D.op12.2.7.161243956333802.input.0.npy");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->format, "");
}

TEST(KernelDumpNameTest, FftsExtraNumericFieldsAreSkipped) {
  Result<KernelDumpName> n = ParseKernelDumpName("Add.op1.2.3.161243956333802.1.2.3.output.4.ND.FLOAT16.npy");
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(n->timestamp, 161243956333802u);
  EXPECT_EQ(n->slot, 4u);
}

TEST(KernelDumpNameTest, RawFileWithUnknownDtypeIsRefused) {
  EXPECT_STATUS(ParseKernelDumpName("Sub.op.0.0.1.input.0.ND.UNKNOWN"), Code::kInvalidInput, "needs a known dtype");
  EXPECT_STATUS(ParseKernelDumpName("Sub.op.0.0.1.input.0.ND"), Code::kInvalidInput, "needs a known dtype");
}

TEST(KernelDumpNameTest, MalformedNames) {
  EXPECT_STATUS(ParseKernelDumpName("statistic.csv"), Code::kInvalidInput, "no input/output");
  EXPECT_STATUS(ParseKernelDumpName("A.b.x.0.1.output.0.npy"), Code::kInvalidInput, "decimal");
  EXPECT_STATUS(ParseKernelDumpName("A.b.0.0.1.output.zero.ND.npy"), Code::kInvalidInput, "slot 'zero'");
  EXPECT_STATUS(ParseKernelDumpName("A.b.0.0.1.output.0.ND.FLOAT.extra.npy"), Code::kInvalidInput, "3 fields after the slot");
  EXPECT_STATUS(ParseKernelDumpName(".b.0.0.1.output.0.npy"), Code::kInvalidInput, "field 1 is empty");
  EXPECT_STATUS(ParseKernelDumpName(std::string(5000, 'a')), Code::kInvalidInput, "more than 4096");
}

TEST(KernelDumpNameTest, DtypeLabelsOfBothProducers) {
  EXPECT_EQ(KernelDumpLabelDType("float32"), DType::kF32);
  EXPECT_EQ(KernelDumpLabelDType("FLOAT16"), DType::kF16);
  EXPECT_EQ(KernelDumpLabelDType("INT4"), DType::kI4);
  EXPECT_EQ(KernelDumpLabelDType("int8"), DType::kI8);
  EXPECT_FALSE(KernelDumpLabelDType("STRING").has_value());
}

// The .bin fixtures (tests/data/bin/gen_bin_fixtures.py) are kernel dumps; npy, csv and text files
// in the same tree are not.
TEST(KernelDumpNameTest, BinDumpNames) {
  int bins = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::TestData("bin/cases"))) {
    EXPECT_TRUE(IsKernelBinDumpName(entry.path().filename().string())) << entry.path();
    ++bins;
  }
  EXPECT_EQ(bins, 19);
  EXPECT_FALSE(IsKernelBinDumpName("Add.Default_Add-op1.3.2.1735011096403740.output.0.NCHW.FLOAT.npy"));
  EXPECT_FALSE(IsKernelBinDumpName("mapping.csv"));
  EXPECT_FALSE(IsKernelBinDumpName("a.b.c.1"));
  EXPECT_FALSE(IsKernelBinDumpName("a.b.c.d."));
}

// The names msprobe L2 gives converted slots, as gen_bin_fixtures.py names the expected .npy files.
TEST(KernelDumpNameTest, ConvertedSlotNamesAreTheFixturesNames) {
  const std::string bin_name = "Cast.Default_dtypes-op1.1.2.1735011096403740";
  Result<BinFile> bin = ReadBinFile(testing::TestData("bin/cases/" + bin_name));
  ASSERT_TRUE(bin.ok()) << bin.status().ToString();
  int named = 0;
  for (const BinSlot& slot : bin->slots) {
    if (!slot.dtype || slot.kind == BinSlotKind::kBuffer || slot.kind == BinSlotKind::kWorkspace) continue;
    const std::string name = ConvertedSlotName(bin_name, slot, "ND");
    EXPECT_TRUE(std::filesystem::exists(testing::TestData("bin/expected/" + name))) << name;
    ++named;
  }
  EXPECT_EQ(named, 21);
  const std::string parsed_back = ConvertedSlotName(bin_name, bin->slots.front(), "ND");
  Result<KernelDumpName> n = ParseKernelDumpName(parsed_back);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(n->op_name, "Default_dtypes-op1");
  EXPECT_EQ(n->dtype_label, "FLOAT");
}

// Expected values from a Python FNV-1a of the same bytes (two 64-bit hashes, offset bases
// 0xcbf29ce484222325 and 0x84222325cbf29ce4).
TEST(KernelDumpNameTest, HashedNames) {
  const std::string long_name =
      "Conv2D." + std::string(220, 'x') + ".1.2.1735011096403740.output.0.NCHW.FLOAT16.npy";
  EXPECT_EQ(HashedKernelDumpName(long_name), "cd07e89707c42ede520fd1a7aefa2e67.npy");
  EXPECT_EQ(HashedKernelDumpName(""), "cbf29ce48422232584222325cbf29ce4.npy");
  EXPECT_GT(long_name.size(), kMaxFileNameBytes);
}

}  // namespace
}  // namespace msprobe
