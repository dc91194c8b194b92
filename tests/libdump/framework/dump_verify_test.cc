#include "msprobe/dump/framework/dump_verify.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "msprobe/dump/files/tensor_file.h"
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
  auto report = RunVerify({SampleRank0()});
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->ok()) << report->issues.front().file << " " << report->issues.front().detail;
  EXPECT_GT(report->files_checked, 10u);
}

TEST(DumpVerifyTest, EverySharedSampleDumpAgrees) {
  MSP_REQUIRE_SHARED(root, "msprobe_samples");
  for (const char* dump : {"single_proc/st_mix", "single_proc/t_l1", "single_proc/md5_l1", "single_proc/xor_l1",
                           "single_proc/dbg_st", "single_proc/dbg_t", "single_proc/argtypes_L1", "dist2/npu_stat",
                           "dist2/bench_stat", "dist2/npu_t", "dist2/bench_t", "dist2_da/golden", "dist2_da/target"}) {
    auto report = RunVerify({root + "/" + dump});
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
  auto report = RunVerify({dir});
  ASSERT_TRUE(report.ok());
  const auto mismatches = IssuesOf(VerifyFinding::kMismatch, *report);
  ASSERT_FALSE(mismatches.empty());
  for (const VerifyIssue& i : mismatches) EXPECT_EQ(i.file, victim);
  EXPECT_EQ(mismatches[0].where, "Functional.linear.0.forward.input_args.0");
}

TEST(DumpVerifyTest, UnknownDtypeAndNonNumericStatisticsAreMismatches) {
  TempDir tmp;
  const std::string dir = CopyDump(tmp, SampleRank0());
  std::string json = ReadFile(dir + "/dump.json");
  // The first tensor object of the sample: Functional.linear.0.forward's input 0, float32.
  const size_t dtype = json.find("\"torch.float32\"");
  ASSERT_NE(dtype, std::string::npos);
  json.replace(dtype, 15, "\"torch.float99\"");
  const size_t max = json.find("\"Max\": ", dtype);
  ASSERT_NE(max, std::string::npos);
  const size_t value_end = json.find(',', max);
  const size_t second_max = json.find("\"Max\": ", value_end);
  ASSERT_NE(second_max, std::string::npos);
  json.replace(second_max, json.find(',', second_max) - second_max, "\"Max\": \"big\"");
  WriteFile(dir + "/dump.json", json);
  auto report = RunVerify({dir});
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  const auto mismatches = IssuesOf(VerifyFinding::kMismatch, *report);
  ASSERT_EQ(mismatches.size(), 2u);
  EXPECT_EQ(mismatches[0].detail, "dtype recorded \"torch.float99\" is no dtype msprobe writes, file holds float32");
  EXPECT_EQ(mismatches[1].detail, "Max recorded is not a number");
}

// tests/data/verify_overflow: a float32 weight with two elements of 3.4e38, its Mean and Norm recorded as
// torch's float32 reductions give them (inf), the output's Norm inf although ‖y‖ < float32 max.
std::string OverflowRank0() {
  return std::string(MSPROBE_SOURCE_DIR) + "/tests/data/verify_overflow/overflow/step0/rank0";
}
constexpr const char* kOverflowWeight = "/dump_tensor_data/Functional.linear.0.forward.input.1.pt";

TEST(DumpVerifyTest, OverflowDumpAsTorchWroteItIsIntact) {
  auto report = RunVerify({OverflowRank0()});
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  for (const VerifyIssue& issue : report->issues) ADD_FAILURE() << issue.where << " " << issue.detail;
  EXPECT_EQ(report->files_checked, 4u);
}

TEST(DumpVerifyTest, FlippedByteInOverflowingWeightIsStillCaught) {
  TempDir tmp;
  const std::string dir = CopyDump(tmp, OverflowRank0());
  const std::string victim = dir + kOverflowWeight;
  auto info = ReadTensorFile(victim);
  ASSERT_TRUE(info.ok());
  std::string bytes = ReadFile(victim);
  const uint64_t at = info->data_offset + (3 * 72 + 5) * 4;  // weight[3][5] = 3.4e38
  float huge;
  std::memcpy(&huge, bytes.data() + at, 4);
  ASSERT_EQ(huge, 3.4e38f);
  bytes[at + 3] ^= 0x40;  // exponent: 3.4e38 becomes about 1; the other 3.4e38 keeps Max and the Norm's inf
  WriteFile(victim, bytes);
  auto report = RunVerify({dir});
  ASSERT_TRUE(report.ok());
  const auto mismatches = IssuesOf(VerifyFinding::kMismatch, *report);
  ASSERT_EQ(mismatches.size(), 1u) << mismatches.back().detail;
  EXPECT_EQ(mismatches[0].file, victim);
  EXPECT_EQ(mismatches[0].where, "Functional.linear.0.forward.input_args.1");
  // The float32 sum is now 3.4e38 plus small terms of both signs: below float32's max, so no order of
  // summation overflows and the recorded inf is wrong.
  EXPECT_TRUE(mismatches[0].detail.starts_with("Mean recorded inf, computed 7.37")) << mismatches[0].detail;
}

// CheckRecord on synthetic statistics: which recorded infinities a reduction in the dtype can give.
struct OverflowCase {
  TensorRecord record;
  TensorInfo info;
  TensorStats stats;
  OverflowCase(const char* dtype, DType d, double max, double min, double mean, double norm, uint64_t numel) {
    record.entry = "Functional.x.0.forward";
    record.path = "input_args.0";
    record.type = "torch.Tensor";
    record.dtype = dtype;
    record.shape = {static_cast<int64_t>(numel)};
    info.dtype = d;
    info.shape = record.shape;
    stats.dtype = d;
    stats.numel = numel;
    stats.max = max, stats.min = min, stats.mean = mean, stats.norm = norm;
    stats.has_values = true;
    for (RecordedStat* r : {&record.max, &record.min, &record.mean, &record.norm}) {
      r->kind = RecordedStat::Kind::kNumber;
    }
    record.max.number = max, record.min.number = min, record.mean.number = mean, record.norm.number = norm;
  }
  std::vector<std::string> Check(const SignedSumsFn& sums = {}) const {
    std::vector<VerifyIssue> issues;
    CheckRecord(record, info, stats, "f.pt", &issues, sums);
    std::vector<std::string> out;
    for (const VerifyIssue& i : issues) out.push_back(i.detail);
    return out;
  }
};

constexpr double kInf = std::numeric_limits<double>::infinity();
using Details = std::vector<std::string>;

TEST(DumpVerifyOverflowTest, NormInfWhenTheSumOfSquaresPassesTheDtypeMax) {
  // torch.tensor([2e19, 2e19]).norm() is inf in float32 (2e19² = 4e38 > 3.4028e38); the norm is 2.83e19.
  OverflowCase c("torch.float32", DType::kF32, 2e19, 2e19, 2e19, std::sqrt(8e38), 2);
  c.record.norm.number = kInf;
  EXPECT_EQ(c.Check(), Details{});
  c.record.norm.number = -kInf;  // a norm is never -inf
  EXPECT_EQ(c.Check().size(), 1u);
  // 1.8e19² = 3.24e38 < max: float32 gives a finite norm, so inf is a mismatch
  OverflowCase d("torch.float32", DType::kF32, 1.8e19, 1.8e19, 1.8e19, 1.8e19, 1);
  d.record.shape = d.info.shape = {1, 1};
  d.record.norm.number = kInf;
  ASSERT_EQ(d.Check().size(), 1u);
  EXPECT_EQ(d.Check()[0], "Norm recorded inf, computed 1.8e+19");
}

TEST(DumpVerifyOverflowTest, Float16OverflowsAtItsOwnMax) {
  // torch.tensor([300., 300.], dtype=torch.float16).norm() is inf: 9e4 > 65504.
  OverflowCase c("torch.float16", DType::kF16, 300, 300, 300, std::sqrt(180000.0), 2);
  c.record.norm.number = kInf;
  EXPECT_EQ(c.Check(), Details{});
  // The same values recorded as float32 could not overflow.
  OverflowCase d("torch.float32", DType::kF32, 300, 300, 300, std::sqrt(180000.0), 2);
  d.record.norm.number = kInf;
  EXPECT_EQ(d.Check().size(), 1u);
}

TEST(DumpVerifyOverflowTest, MeanInfNeedsAPartialSumOfThatSignPastTheMax) {
  // 2 × 3e38 and 2 × -3e38: the exact mean is 0; torch gives inf, -inf or nan by summation order.
  OverflowCase c("torch.float32", DType::kF32, 3e38, -3e38, 0, 6e38, 4);
  const SignedSumsFn both = [] { return Result<SignedSums>(SignedSums{6e38, 6e38}); };
  for (double rec : {kInf, -kInf, std::numeric_limits<double>::quiet_NaN()}) {
    c.record.mean.number = rec;
    EXPECT_EQ(c.Check(both), Details{}) << rec;
    EXPECT_EQ(c.Check().size(), 1u) << rec;  // without the signed sums only the total speaks: 0
  }
  // Positive side 3.4e38 - 1e33 below the max: no order overflows upwards.
  const SignedSumsFn short_pos = [] { return Result<SignedSums>(SignedSums{3.4e38, 6e38}); };
  c.record.mean.number = kInf;
  EXPECT_EQ(c.Check(short_pos).size(), 1u);
  c.record.mean.number = -kInf;
  EXPECT_EQ(c.Check(short_pos), Details{});
  // One-signed tensors settle it from the total, without asking.
  OverflowCase p("torch.float32", DType::kF32, 3e38, 1, 6e38 / 4096, 4.3e38, 4096);
  p.record.mean.number = kInf;
  p.record.norm.number = kInf;
  const SignedSumsFn never = []() -> Result<SignedSums> { ADD_FAILURE() << "asked"; return SignedSums{}; };
  EXPECT_EQ(p.Check(never), Details{});
  p.record.mean.number = -kInf;
  EXPECT_EQ(p.Check(never).size(), 1u);
}

TEST(DumpVerifyOverflowTest, ZeroDimensionalValuesAreNotReductions) {
  OverflowCase c("torch.float32", DType::kF32, 3e38, 3e38, 3e38, 3e38, 1);
  c.record.shape = c.info.shape = {};
  c.record.norm.number = kInf;
  EXPECT_EQ(c.Check().size(), 1u);
}

TEST(DumpVerifyTest, MissingUnreferencedAndUnreadableFiles) {
  TempDir tmp;
  const std::string dir = CopyDump(tmp, SampleRank0());
  const std::string data = dir + "/dump_tensor_data/";
  fs::remove(data + "Functional.linear.0.forward.input.0.pt");
  WriteFile(data + "stray.pt", "not a tensor");
  WriteFile(data + "Functional.linear.0.forward.output.0.pt", "PK\x03\x04 truncated");
  auto report = RunVerify({dir});
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
  // The sample names 45 tensor files: the two not read are counted apart, never as checked.
  EXPECT_EQ(report->tensor_records, 45u);
  EXPECT_EQ(report->files_checked, 43u);
  EXPECT_EQ(report->files_missing, 1u);
  EXPECT_EQ(report->files_unreadable, 1u);
}

TEST(DumpVerifyTest, EveryFileMissingChecksNone) {
  TempDir tmp;
  const std::string dir = CopyDump(tmp, SampleRank0());
  fs::remove_all(dir + "/dump_tensor_data");
  auto report = RunVerify({dir});
  ASSERT_TRUE(report.ok());
  EXPECT_FALSE(report->ok());
  EXPECT_EQ(report->files_checked, 0u);
  EXPECT_EQ(report->files_missing, 45u);
  EXPECT_EQ(IssuesOf(VerifyFinding::kMissing, *report).size(), 45u);
}

TEST(DumpVerifyTest, HostileDataNameIsRefusedNotOpened) {
  TempDir tmp;
  fs::create_directories(tmp.root() / "rank0/dump_tensor_data");
  WriteFile(tmp.Path("rank0/dump.json"), R"({"task": "tensor", "level": "L1", "framework": "pytorch", "data": {
    "A.0.forward": {"output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [1],
                    "data_name": "../../etc/passwd"}]}}})");
  auto report = RunVerify({tmp.Path("rank0")});
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->issues.size(), 1u);
  EXPECT_EQ(report->issues[0].kind, VerifyFinding::kUnreadable);
  EXPECT_NE(report->issues[0].detail.find("refused data_name"), std::string::npos);
  EXPECT_EQ(report->files_checked, 0u);
  EXPECT_EQ(report->files_unreadable, 1u);
}

TEST(DumpVerifyTest, NoEntriesIsNothingToVerify) {
  TempDir tmp;
  for (const char* rank : {"step0/rank0", "step0/rank1"}) {
    fs::create_directories(tmp.root() / rank);
    WriteFile((tmp.root() / rank / "dump.json").string(),
              R"({"task": "tensor", "level": "L1", "framework": "pytorch", "data": {}})");
  }
  auto one = RunVerify({tmp.Path("step0/rank0")});
  EXPECT_STATUS(one, Code::kInvalidInput, "its \"data\" holds no API entries: nothing to verify");
  EXPECT_EQ(one.status().source(), tmp.Path("step0/rank0/dump.json"));
  auto both = RunVerify({tmp.Path("step0")});
  EXPECT_STATUS(both, Code::kInvalidInput, "none of its 2 json files' \"data\" holds an API entry: nothing to verify");
  EXPECT_EQ(both.status().source(), tmp.Path("step0"));
}

TEST(DumpVerifyTest, BadJsonFailsTheWholeVerify) {
  TempDir tmp;
  fs::create_directories(tmp.root() / "rank0");
  WriteFile(tmp.Path("rank0/dump.json"), R"({"task": "tensor", "data": {"a": )");
  EXPECT_STATUS(RunVerify({tmp.Path("rank0")}), Code::kInvalidInput, "invalid JSON at byte");
}

}  // namespace
}  // namespace msprobe
