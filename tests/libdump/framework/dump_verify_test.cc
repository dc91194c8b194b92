#include "msprobe/dump/framework/dump_verify.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "msprobe/dump/tensor/tensor_file.h"
#include "test_support.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

// The bundled demo dump (samples/ is part of the project, so this never skips).
std::string SampleRank0() { return std::string(MSPROBE_SOURCE_DIR) + "/samples/dist2/npu_t/step0/rank0"; }

// A writable copy of a dump directory.
std::string CopyDump(const TempDir& tmp, const std::string& from) {
  const std::string to = tmp.Path("rank0");
  fs::copy(from, to, fs::copy_options::recursive);
  for (const auto& f : fs::recursive_directory_iterator(to)) {
    fs::permissions(f.path(), fs::perms::owner_write, fs::perm_options::add);
  }
  return to;
}

std::vector<VerifyIssue> IssuesOf(VerifyFinding kind, const VerifyReport& report) {
  std::vector<VerifyIssue> out;
  for (const VerifyIssue& i : report.issues) {
    if (i.kind == kind) out.push_back(i);
  }
  return out;
}

TEST(DumpVerifyTest, BundledSampleAgreesWithItsJson) {
  auto report = VerifyDump(SampleRank0());
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->ok()) << report->issues.front().file << " " << report->issues.front().detail;
  EXPECT_GT(report->files_checked, 10u);
}

TEST(DumpVerifyTest, EverySharedSampleDumpAgrees) {
  MSP_REQUIRE_SHARED(root, "msprobe_samples");
  for (const char* dump : {"single_proc/st_mix", "single_proc/t_l1", "single_proc/md5_l1", "single_proc/xor_l1",
                           "single_proc/dbg_st", "single_proc/dbg_t", "single_proc/argtypes_L1", "dist2/npu_stat",
                           "dist2/bench_stat", "dist2/npu_t", "dist2/bench_t", "dist2_da/golden", "dist2_da/target"}) {
    auto report = VerifyDump(root + "/" + dump);
    ASSERT_TRUE(report.ok()) << dump << ": " << report.status().ToString();
    for (const VerifyIssue& issue : report->issues) {
      ADD_FAILURE() << dump << ": " << FindingName(issue.kind) << " " << issue.file << " " << issue.where << " "
                    << issue.detail;
    }
  }
}

TEST(DumpVerifyTest, FlippedByteIsNamed) {
  TempDir tmp;
  const std::string dir = CopyDump(tmp, SampleRank0());
  const std::string victim = dir + "/dump_tensor_data/Functional.linear.0.forward.input.0.pt";
  auto info = ReadTensorFile(victim);
  ASSERT_TRUE(info.ok());
  std::string bytes = ReadFile(victim);
  bytes[info->data_offset + 3] ^= 0x40;  // the exponent byte of the first float32
  WriteFile(victim, bytes);
  auto report = VerifyDump(dir);
  ASSERT_TRUE(report.ok());
  const auto mismatches = IssuesOf(VerifyFinding::kMismatch, *report);
  ASSERT_FALSE(mismatches.empty());
  for (const VerifyIssue& i : mismatches) EXPECT_EQ(i.file, victim);
  EXPECT_EQ(mismatches[0].where, "Functional.linear.0.forward.input_args.0");
}

TEST(DumpVerifyTest, MissingUnreferencedAndUnreadableFiles) {
  TempDir tmp;
  const std::string dir = CopyDump(tmp, SampleRank0());
  const std::string data = dir + "/dump_tensor_data/";
  fs::remove(data + "Functional.linear.0.forward.input.0.pt");
  WriteFile(data + "stray.pt", "not a tensor");
  WriteFile(data + "Functional.linear.0.forward.output.0.pt", "PK\x03\x04 truncated");
  auto report = VerifyDump(dir);
  ASSERT_TRUE(report.ok());
  EXPECT_FALSE(report->ok());
  const auto missing = IssuesOf(VerifyFinding::kMissing, *report);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].file, data + "Functional.linear.0.forward.input.0.pt");
  const auto unreferenced = IssuesOf(VerifyFinding::kUnreferenced, *report);
  ASSERT_EQ(unreferenced.size(), 1u);
  EXPECT_EQ(unreferenced[0].file, data + "stray.pt");
  const auto unreadable = IssuesOf(VerifyFinding::kUnreadable, *report);
  ASSERT_EQ(unreadable.size(), 1u);
  EXPECT_EQ(unreadable[0].file, data + "Functional.linear.0.forward.output.0.pt");
}

TEST(DumpVerifyTest, HostileDataNameIsRefusedNotOpened) {
  TempDir tmp;
  fs::create_directories(tmp.root() / "rank0/dump_tensor_data");
  WriteFile(tmp.Path("rank0/dump.json"), R"({"task": "tensor", "level": "L1", "framework": "pytorch", "data": {
    "A.0.forward": {"output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [1],
                    "data_name": "../../etc/passwd"}]}}})");
  auto report = VerifyDump(tmp.Path("rank0"));
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->issues.size(), 1u);
  EXPECT_EQ(report->issues[0].kind, VerifyFinding::kUnreadable);
  EXPECT_NE(report->issues[0].detail.find("refused data_name"), std::string::npos);
}

TEST(DumpVerifyTest, BadJsonFailsTheWholeVerify) {
  TempDir tmp;
  fs::create_directories(tmp.root() / "rank0");
  WriteFile(tmp.Path("rank0/dump.json"), R"({"task": "tensor", "data": {"a": )");
  EXPECT_STATUS(VerifyDump(tmp.Path("rank0")), Code::kInvalidInput, "invalid JSON at byte");
}

}  // namespace
}  // namespace msprobe
