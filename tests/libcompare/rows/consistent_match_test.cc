// --consistent_check's pairing (docs/compare.md §3.9): the outer merge on the keys, the joined rows
// with msprobe's joined statistics, the order of both dumps, the APIs of rollout-only rows.
#include "msprobe/compare/rows/consistent_match.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"

namespace msprobe::compare {
namespace {

OpRow Row(const std::string& key, const std::string& suffix, std::array<Cell, 4> stats, RowState state = RowState::kOutput) {
  OpRow row;
  row.api = key;
  row.name = key + suffix;
  row.dtype = "torch.float32";
  row.shape = "[3, 4]";
  row.stats = std::move(stats);
  row.requires_grad = "False";
  row.data_name = row.name + ".pt";
  row.state = state;
  return row;
}

const std::string kTrain = "Module._fsdp_wrapped_module.model.layers.0._fsdp_wrapped_module.self_attn.";
const std::string kRollout = "Module.model.layers.0.self_attn.";

TEST(ConsistentMatchTest, FsdpJoinsTheTrainingProjectionsOfOneFusedRow) {
  const std::vector<OpRow> target = {
      Row(kTrain + "q_proj.Linear.forward.0", ".output.0", {Cell::Float(1.5), Cell::Int(-2), Cell::Float(0.25), Cell::None()}),
      Row(kTrain + "k_proj.Linear.forward.0", ".output.0", {Cell::Float(3), Cell::Float(-1), Cell::Float(0.5), Cell::None()}),
      Row(kTrain + "o_proj.Linear.forward.0", ".output.0", {Cell::Int(4), Cell::Int(0), Cell::None(), Cell::None()}),
  };
  const std::vector<OpRow> golden = {
      Row(kRollout + "qkv_proj.QKVParallelLinear.forward.0", ".output.0", {Cell::Float(3), Cell::Float(-2), Cell::Float(0.4), Cell::Float(9)}),
      Row(kRollout + "qkv_proj.QKVParallelLinear.forward.0", ".output.1", {Cell::None(), Cell::None(), Cell::None(), Cell::None()}),
  };
  const auto rows = BuildConsistentRows(target, golden, {ConsistentBackend::kFsdp, ";  "}, "t");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 3u);
  const ResultRow& qk = (*rows)[0];
  EXPECT_EQ(qk.target_name, target[0].name + ";  " + target[1].name);
  EXPECT_EQ(qk.target_dtype, "torch.float32;torch.float32");
  EXPECT_EQ(qk.target_data_name, target[0].data_name + ";" + target[1].data_name);
  EXPECT_EQ(qk.target_stats[0].ToPython(), "3.0");   // the largest max
  EXPECT_EQ(qk.target_stats[1].ToPython(), "-2.0");  // the smallest min, a float as msprobe reads it back
  EXPECT_EQ(qk.target_stats[2].ToPython(), "0.25;0.5");
  EXPECT_EQ(qk.target_stats[3].ToPython(), "None;None");
  EXPECT_TRUE(qk.matched);
  // the training-only row next (the first of both orders is tried first), then the rollout's second
  // output, which has no training row
  EXPECT_EQ((*rows)[1].target_name, target[2].name);
  EXPECT_EQ((*rows)[1].golden_name, "N/A");
  EXPECT_EQ((*rows)[1].target_stats[0].ToPython(), "4.0");
  EXPECT_EQ((*rows)[2].target_name, "N/A");
  EXPECT_EQ((*rows)[2].golden_name, golden[1].name);
  EXPECT_EQ((*rows)[2].api, target[0].api);  // the training API its rollout API was paired with
}

TEST(ConsistentMatchTest, OrdersThatCannotBothIncreaseAreRefused) {
  const std::vector<OpRow> target = {
      Row(kTrain + "o_proj.Linear.forward.0", ".output.0", {Cell::Int(1), Cell::Int(1), Cell::Int(1), Cell::Int(1)}),
      Row(kTrain + "q_norm.RMSNorm.forward.0", ".output.0", {Cell::Int(1), Cell::Int(1), Cell::Int(1), Cell::Int(1)}),
  };
  const std::vector<OpRow> golden = {
      Row(kRollout + "q_norm.RMSNorm.forward.0", ".output.0", {Cell::Int(1), Cell::Int(1), Cell::Int(1), Cell::Int(1)}),
      Row(kRollout + "o_proj.RowParallelLinear.forward.0", ".output.0", {Cell::Int(1), Cell::Int(1), Cell::Int(1), Cell::Int(1)}),
  };
  EXPECT_STATUS(BuildConsistentRows(target, golden, {ConsistentBackend::kFsdp, ";  "}, "t"), Code::kInvalidInput,
                "Conflicting comparison data");
}

TEST(ConsistentMatchTest, MegatronJoinsTheRolloutRowsOfOneTrainingRow) {
  const std::string layer = "Module.module.module.decoder.layers.0.mlp.";
  const std::vector<OpRow> target = {
      Row(layer + "linear_fc1.ColumnParallelLinear.forward.0", ".input.0", {Cell::Float(1), Cell::Float(0), Cell::Float(NAN), Cell::Float(2)}, RowState::kInput),
  };
  const std::vector<OpRow> golden = {
      Row("Module.model.layers.0.mlp.gate_up_proj.MergedColumnParallelLinear.forward.0", ".input.0",
          {Cell::Float(1), Cell::Float(0), Cell::Nan(), Cell::Float(2)}, RowState::kInput),
      Row("Module.model.layers.0.shared_expert.gate_up_proj.MergedColumnParallelLinear.forward.0", ".input.0",
          {Cell::Float(2), Cell::Float(-1), Cell::Float(0.5), Cell::Float(3)}, RowState::kInput),
  };
  const auto rows = BuildConsistentRows(target, golden, {ConsistentBackend::kMegatron, ";\n"}, "t");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].golden_name, golden[0].name + ";\n" + golden[1].name);
  EXPECT_EQ((*rows)[0].golden_stats[0].ToPython(), "2.0");
  EXPECT_EQ((*rows)[0].golden_stats[2].ToPython(), "nan;0.5");
  EXPECT_EQ((*rows)[0].target_stats[2].ToPython(), "Nan");
}

TEST(ConsistentMatchTest, DebugAndMd5DumpsAreRefused) {
  FlatDump a, b;
  a.json_path = "t.json";
  EXPECT_TRUE(CheckConsistentDumps(a, b).ok());
  b.mode = CompareMode::kMd5;
  EXPECT_STATUS(CheckConsistentDumps(a, b), Code::kInvalidInput, "md5");
  b.mode = CompareMode::kSummary;
  a.is_debug = true;
  EXPECT_STATUS(CheckConsistentDumps(a, b), Code::kInvalidInput, "debug.json");
}

}  // namespace
}  // namespace msprobe::compare
