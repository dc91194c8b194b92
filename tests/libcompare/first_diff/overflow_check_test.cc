// msprobe overflow_check (docs/compare.md §11) on tests/data/overflow: the anomaly_analyze file msprobe
// itself wrote for each case (tests/data/overflow/README.md), the cases without one, and the errors.
#include "msprobe/compare/first_diff/overflow_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "first_diff/overflow_ops_internal.h"
#include "msprobe/dump/text/python_json.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;
using testing::TestData;

Result<OverflowCheckReport> Check(const std::string& step, const testing::TempDir& tmp) {
  return RunOverflowCheck({step, tmp.Path("out")});
}

std::string Msprobe(const std::string& name) { return testing::ReadFile(TestData("overflow/msprobe/overflow_" + name + ".json")); }

TEST(OverflowCheckTest, AnalyzeFilesAsMsprobeWritesThem) {
  for (const char* name : {"pre", "comm", "post", "proc"}) {
    testing::TempDir tmp;
    const auto report = Check(TestData(std::string("overflow/") + name + "/step0"), tmp);
    ASSERT_TRUE(report.ok()) << report.status().ToString();
    ASSERT_FALSE(report->analyze_file.empty()) << name;
    EXPECT_TRUE(fs::path(report->analyze_file).filename().string().starts_with("anomaly_analyze_"));
    EXPECT_EQ(testing::ReadFile(report->analyze_file), Msprobe(name)) << name;
  }
}

// msprobe lists rank1 first on the machine that made its file; we search ranks in ascending order.
TEST(OverflowCheckTest, RanksInAscendingOrder) {
  testing::TempDir tmp;
  const auto report = Check(TestData("overflow/pre_both/step0"), tmp);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->nodes.size(), 2u);
  EXPECT_EQ(report->nodes[0].rank, 0);
  EXPECT_EQ(report->stage, DiffStage::kBeforeCommunication);
  const Result<JsonDocument> theirs = ParseJsonText(Msprobe("pre_both"), "msprobe");
  ASSERT_TRUE(theirs.ok());
  PyJsonWriter sorted(2);
  sorted.BeginObject();
  for (const char* key : {"rank_0", "rank_1"}) {
    sorted.Key(key);
    sorted.Value(*Member(*theirs, key));
  }
  sorted.EndObject();
  EXPECT_EQ(testing::ReadFile(report->analyze_file), std::move(sorted).Finish());
}

// The same op overflows on both ranks at the same place: msprobe's pick depends on its listing and
// set orders, ours is the lowest rank.
TEST(OverflowCheckTest, ATieBetweenRanksGoesToTheLowest) {
  testing::TempDir tmp;
  const auto report = Check(TestData("overflow/comm_out/step0"), tmp);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->nodes.size(), 1u);
  EXPECT_EQ(report->nodes[0].rank, 0);
  EXPECT_EQ(report->nodes[0].op_name, "Distributed.all_reduce.1.forward");
  EXPECT_EQ(report->stage, DiffStage::kDuringCommunication);
  EXPECT_NE(Msprobe("comm_out").find("\"op_name\": \"Distributed.all_reduce.1.forward\""), std::string::npos);
}

TEST(OverflowCheckTest, NothingFoundWritesNothing) {
  for (const char* name : {"none", "input_bad"}) {
    testing::TempDir tmp;
    const auto report = Check(TestData(std::string("overflow/") + name + "/step0"), tmp);
    ASSERT_TRUE(report.ok()) << report.status().ToString();
    EXPECT_TRUE(report->nodes.empty()) << name;
    EXPECT_TRUE(report->analyze_file.empty());
    EXPECT_FALSE(fs::exists(tmp.Path("out")));
  }
}

TEST(OverflowCheckTest, InputsItCannotUse) {
  testing::TempDir tmp;
  EXPECT_STATUS(Check(tmp.Path("missing"), tmp), Code::kInvalidInput, "not a directory");
  fs::create_directories(tmp.Path("step/rank0"));
  testing::WriteFile(tmp.Path("step/rank0/dump.json"), R"({"framework": "mindspore", "data": {}})");
  EXPECT_STATUS(Check(tmp.Path("step"), tmp), Code::kNotFound, "a rank needs dump.json, construct.json");
  testing::WriteFile(tmp.Path("step/rank0/construct.json"), "{}");
  testing::WriteFile(tmp.Path("step/rank0/stack.json"), "{}");
  EXPECT_STATUS(Check(tmp.Path("step"), tmp), Code::kInvalidInput, "only available for PyTorch");
  testing::WriteFile(tmp.Path("step/rank0/dump.json"), R"({"framework": "pytorch", "data": {}})");
  const auto empty = Check(tmp.Path("step"), tmp);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->ranks_without_data, std::vector<int>{0});
  testing::WriteFile(tmp.Path("step/rank0/dump.json"), R"({"framework": "pytorch", "data": {"Distributed.send.0": {}}})");
  EXPECT_STATUS(Check(tmp.Path("step"), tmp), Code::kInvalidInput, "invalid op_name: Distributed.send.0");
  fs::create_directories(tmp.Path("step/rankx"));  // not a rank: skipped, files or not
  fs::create_directories(tmp.Path("step/other"));
  testing::WriteFile(tmp.Path("step/rank0/dump.json"), R"({"framework": "pytorch", "data": {"a.b.0.forward": {}}})");
  const auto ok = Check(tmp.Path("step"), tmp);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->ranks, std::vector<int>{0});
}

OverflowOp Op(const std::string& key, const std::string& entry, int rank = 0) {
  const Result<JsonDocument> doc = ParseJsonText(entry, "t");
  EXPECT_TRUE(doc.ok()) << doc.status().ToString();
  const Result<OverflowOp> op = ReadOverflowOp(key, *doc, rank, "t");
  EXPECT_TRUE(op.ok()) << op.status().ToString();
  return op.ok() ? *op : OverflowOp{};
}

TEST(OverflowOpsTest, AnAnomalyIsAnOverflowingOutputFromCleanInputs) {
  EXPECT_TRUE(Op("F.a.0.forward", R"({"input_args": [{"Max": 1, "Min": 0}], "output": [{"Max": Infinity, "Min": 0}]})").anomaly);
  EXPECT_TRUE(Op("F.a.0.forward", R"({"output": [{"Max": 1, "Min": "nan"}]})").anomaly);
  EXPECT_TRUE(Op("F.a.0.forward", R"({"output": {"y": {"Max": NaN}}})").anomaly);
  EXPECT_FALSE(Op("F.a.0.forward", R"({"input_kwargs": {"x": {"Max": -Infinity}}, "output": [{"Max": NaN}]})").anomaly);
  EXPECT_FALSE(Op("F.a.0.backward", R"({"input": [{"Min": NaN}], "output": [{"Max": NaN}]})").anomaly);
  EXPECT_FALSE(Op("Torch.empty.0.forward", R"({"output": [{"Max": NaN}]})").anomaly);
  // only top-level items: a nested list hides its tensors; a bare record is not an item list
  EXPECT_FALSE(Op("F.a.0.forward", R"({"output": [[{"Max": NaN}]]})").anomaly);
  EXPECT_FALSE(Op("F.a.0.forward", R"({"output": {"type": "torch.Tensor", "Max": NaN}})").anomaly);
  EXPECT_FALSE(Op("F.a.0.forward", R"({"output": [{"Max": "Infinity", "Mean": NaN}]})").anomaly);
}

TEST(OverflowOpsTest, CommunicationDirectionAndPeers) {
  const OverflowOp send = Op("Distributed.send.0.forward", R"({"input_args": [{"type": "torch.Tensor"}, {"type": "int", "value": 1}]})");
  EXPECT_TRUE(send.communication);
  EXPECT_EQ(send.direction, CommDirection::kSrc);  // sends to rank 1 from rank 0: the other end is dst
  EXPECT_EQ(send.peers, std::vector<int>{1});
  const OverflowOp recv = Op("Distributed.recv.0.forward", R"({"input_kwargs": {"src": {"type": "int", "value": 0}}})");
  EXPECT_EQ(recv.direction, CommDirection::kSrc);  // src names this rank
  const OverflowOp all_reduce = Op("Distributed.all_reduce.0.forward",
                                   R"({"input_kwargs": {"group": {"type": "torch.ProcessGroup", "group_ranks": [3, 1]}}})");
  EXPECT_EQ(all_reduce.direction, CommDirection::kLink);
  EXPECT_EQ(all_reduce.peers, (std::vector<int>{1, 3}));
  EXPECT_FALSE(Op("Dist.all_reduce.0.forward", "{}").communication);  // "Distributed." only
}

TEST(OverflowOpsTest, CountsTheAnomaliesOfADumpText) {
  EXPECT_EQ(*CountOverflowAnomalies(R"({"framework": "pytorch", "data": {"F.a.0.forward": {"output": [{"Max": NaN}]},
      "F.b.0.forward": {"output": [{"Max": 1}]}}})", 0, "t"), 1u);
  EXPECT_FALSE(CountOverflowAnomalies(R"({"data": {"Distributed.recv.0": {}}})", 0, "t").ok());
  EXPECT_FALSE(CountOverflowAnomalies("{", 0, "t").ok());
}

}  // namespace
}  // namespace msprobe::compare
