#include "msprobe/dump/framework/dump_layout.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::WriteFile;

TEST(DumpLayoutTest, NaturalOrderComparesDigitRunsAsNumbers) {
  EXPECT_TRUE(NaturalLess("rank2", "rank10"));
  EXPECT_FALSE(NaturalLess("rank10", "rank2"));
  EXPECT_TRUE(NaturalLess("rank", "rank0"));
  EXPECT_TRUE(NaturalLess("step9", "step10"));
  EXPECT_FALSE(NaturalLess("a", "a"));
}

TEST(DumpLayoutTest, FindsJsonFilesOfStepAndRootDirsInNaturalOrder) {
  TempDir tmp;
  for (const char* rank : {"step0/rank10", "step0/rank2", "step1/proc77"}) {
    fs::create_directories(tmp.root() / rank);
    WriteFile((tmp.root() / rank / "dump.json").string(), "{}");
  }
  WriteFile((tmp.root() / "step1/proc77/debug.json").string(), "{}");
  auto step = FindDumpJsonFiles(tmp.Path("step0"));
  ASSERT_TRUE(step.ok());
  EXPECT_EQ(*step, (std::vector<std::string>{tmp.Path("step0/rank2/dump.json"), tmp.Path("step0/rank10/dump.json")}));
  auto all = FindDumpJsonFiles(tmp.Path(""));
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 4u);
  EXPECT_EQ(all->back(), tmp.Path("step1/proc77/debug.json"));
  auto rank = FindDumpJsonFiles(tmp.Path("step0/rank2"));
  ASSERT_TRUE(rank.ok());
  EXPECT_EQ(rank->size(), 1u);
}

TEST(DumpLayoutTest, MissingOrEmptyPathsAreErrors) {
  TempDir tmp;
  EXPECT_STATUS(FindDumpJsonFiles(tmp.Path("nope")), Code::kNotFound, "no such file or directory");
  EXPECT_STATUS(FindDumpJsonFiles(tmp.Path("")), Code::kNotFound, "no dump.json or debug.json found");
}

TEST(DumpLayoutTest, RankFolderWithoutJsonBesideCompleteOnesIsNamed) {
  TempDir tmp;
  fs::create_directories(tmp.root() / "step0/rank0");
  WriteFile((tmp.root() / "step0/rank0/dump.json").string(), "{}");
  fs::create_directories(tmp.root() / "step0/rank1/dump_tensor_data");  // interrupted before its json
  fs::create_directories(tmp.root() / "step0/logs");                    // not a rank folder: ignored
  for (const std::string& input : {tmp.Path("step0"), tmp.Path("")}) {
    SCOPED_TRACE(input);
    EXPECT_STATUS(FindDumpJsonFiles(input), Code::kNotFound, "rank folder holds no dump.json or debug.json");
    EXPECT_EQ(FindDumpJsonFiles(input).status().source(), tmp.Path("step0/rank1"));
  }
}

TEST(DumpLayoutTest, RankDirNamesAreMsprobes) {
  for (const char* name : {"rank", "rank0", "rank12", "proc0", "proc4321"}) EXPECT_TRUE(IsRankDirName(name)) << name;
  for (const char* name : {"rank01", "ranks", "rank-1", "proc", "procx", "step0", "dump_tensor_data"}) {
    EXPECT_FALSE(IsRankDirName(name)) << name;
  }
}

TEST(DumpLayoutTest, SymlinkLoopsInTheTreeDoNotHang) {
  TempDir tmp;
  fs::create_directories(tmp.root() / "step0/rank0");
  fs::create_directory_symlink(tmp.root() / "step0", tmp.root() / "step0/rank0/loop");
  EXPECT_STATUS(FindDumpJsonFiles(tmp.Path("")), Code::kNotFound, "no dump.json");
}

TEST(DumpLayoutTest, DataNameMustStayInsideTheTensorDir) {
  TempDir tmp;
  const std::string dir = tmp.Path("dump_tensor_data");
  fs::create_directories(dir);
  WriteFile(tmp.Path("secret.pt"), "x");
  WriteFile(dir + "/ok.pt", "x");
  auto ok = ResolveDataName(dir, "ok.pt");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, dir + "/ok.pt");
  EXPECT_TRUE(ResolveDataName(dir, "not_written_yet.pt").ok());  // missing is the caller's finding
  EXPECT_STATUS(ResolveDataName(dir, "../secret.pt"), Code::kInvalidInput, "path separator");
  EXPECT_STATUS(ResolveDataName(dir, "/etc/passwd"), Code::kInvalidInput, "absolute path");
  EXPECT_STATUS(ResolveDataName(dir, ".."), Code::kInvalidInput, "not a file name");
  EXPECT_STATUS(ResolveDataName(dir, ""), Code::kInvalidInput, "empty");
  EXPECT_STATUS(ResolveDataName(dir, std::string_view("a\0b", 3)), Code::kInvalidInput, "NUL");
  fs::create_symlink(tmp.root() / "secret.pt", dir + "/escape.pt");
  EXPECT_STATUS(ResolveDataName(dir, "escape.pt"), Code::kInvalidInput, "outside dump_tensor_data");
  fs::create_symlink(dir + "/loop_b.pt", dir + "/loop_a.pt");
  fs::create_symlink(dir + "/loop_a.pt", dir + "/loop_b.pt");
  EXPECT_STATUS(ResolveDataName(dir, "loop_a.pt"), Code::kInvalidInput, "symlink loop");
  fs::create_symlink(dir + "/ok.pt", dir + "/alias.pt");
  EXPECT_TRUE(ResolveDataName(dir, "alias.pt").ok());
}

TEST(DumpLayoutTest, SymlinkedTensorDirMustStayInsideTheDump) {
  TempDir tmp;
  fs::create_directories(tmp.Path("elsewhere"));
  fs::create_directories(tmp.Path("rank0/real_tensors"));
  WriteFile(tmp.Path("elsewhere/a.pt"), "x");
  WriteFile(tmp.Path("rank0/real_tensors/a.pt"), "x");
  fs::create_symlink(tmp.root() / "elsewhere", tmp.Path("rank0/dump_tensor_data"));
  EXPECT_STATUS(ResolveDataName(tmp.Path("rank0/dump_tensor_data"), "a.pt"), Code::kInvalidInput,
                "dump_tensor_data is a symlink leading outside the dump");
  fs::remove(tmp.Path("rank0/dump_tensor_data"));
  fs::create_symlink("real_tensors", tmp.Path("rank0/dump_tensor_data"));  // inside the dump: fine
  EXPECT_TRUE(ResolveDataName(tmp.Path("rank0/dump_tensor_data"), "a.pt").ok());
}

}  // namespace
}  // namespace msprobe
