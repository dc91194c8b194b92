#include "msprobe/dump/kernel/kernel_dump_tree.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;

// §5 layouts.
TEST(KernelDumpTreeTest, RankStepOfEachLayout) {
  RankStep o1 = RankStepOfPath("/d/rank_3/Net/1/7");  // MindSpore O0/O1
  EXPECT_EQ(o1.rank, 3);
  EXPECT_EQ(o1.step, 7);
  RankStep l2 = RankStepOfPath("/d/rank_1/20261121101010/step_4");  // msprobe L2 adump
  EXPECT_EQ(l2.rank, 1);
  EXPECT_EQ(l2.step, 4);
  RankStep ge = RankStepOfPath("/d/2/20261121101010/5/model/1/9");  // MindSpore O2 / GE
  EXPECT_EQ(ge.rank, 5);
  EXPECT_EQ(ge.step, 9);
  RankStep pt = RankStepOfPath("/d/step2/20261121101010/0");  // msprobe L2 PyTorch
  EXPECT_EQ(pt.rank, 0);
  EXPECT_EQ(pt.step, 2);
  RankStep none = RankStepOfPath("/d/rank_0/Net/1/constants");
  EXPECT_FALSE(none.step.has_value());
}

TEST(KernelDumpTreeTest, FindsDirsResolvesMappingAndOrdersByTimestamp) {
  testing::TempDir tmp;
  const fs::path dir = tmp.root() / "rank_2" / "20261121101010" / "step_5";
  fs::create_directories(dir);
  testing::WriteFile((dir / "B.op.0.0.20.output.0.ND.FLOAT16").string(), std::string(6, '\0'));
  testing::WriteFile((dir / "000111.BF16").string(), std::string(8, '\0'));
  testing::WriteFile((dir / "mapping.csv").string(), "000111.BF16,A.op.0.0.10.input.0.ND.BF16\n");
  testing::WriteFile((dir / "statistic.csv").string(), "x\n");
  testing::WriteFile((dir / "notes.txt").string(), "ignored");
  fs::create_directories(tmp.root() / "empty");
  Result<std::vector<KernelDumpDir>> dirs = FindKernelDumpDirs(tmp.root().string());
  ASSERT_TRUE(dirs.ok()) << dirs.status().ToString();
  ASSERT_EQ(dirs->size(), 1u);
  const KernelDumpDir& d = dirs->front();
  EXPECT_EQ(d.rank, 2);
  EXPECT_EQ(d.step, 5);
  EXPECT_EQ(d.statistic_csv, (dir / "statistic.csv").string());
  ASSERT_EQ(d.tensors.size(), 2u);
  EXPECT_EQ(d.tensors[0].name.op_type, "A");  // timestamp 10 first
  EXPECT_EQ(fs::path(d.tensors[0].path).filename(), "000111.BF16");
  Result<TensorInfo> raw = ReadKernelDumpTensor(d.tensors[0]);
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw->dtype, DType::kBF16);
  EXPECT_EQ(raw->shape, std::vector<int64_t>{4});
}

TEST(KernelDumpTreeTest, RawFileOfAPartialElement) {
  testing::TempDir tmp;
  testing::WriteFile(tmp.Path("B.op.0.0.20.output.0.ND.FLOAT"), std::string(6, '\0'));
  Result<std::vector<KernelDumpDir>> dirs = FindKernelDumpDirs(tmp.root().string());
  ASSERT_TRUE(dirs.ok());
  EXPECT_STATUS(ReadKernelDumpTensor(dirs->front().tensors.front()), Code::kInvalidInput,
                "6 bytes, not a whole number of 32-bit elements");
}

TEST(KernelDumpTreeTest, MissingRoot) {
  EXPECT_STATUS(FindKernelDumpDirs("/nonexistent/kernel_dump"), Code::kNotFound, "no such directory");
}

}  // namespace
}  // namespace msprobe
