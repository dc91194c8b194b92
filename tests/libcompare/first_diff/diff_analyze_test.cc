// -da against msprobe's own outputs (shared/data/msprobe_samples: dist2_da/da with a first diff
// before communication, dist2/da_stat and da_t with none), its tables (msprobe_tables), and the
// search stages of docs/compare.md §8.2 on hand-built ranks.
#include "msprobe/compare/first_diff/diff_analyze.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>
#include <zlib.h>

#include <filesystem>

#include "msprobe/compare/first_diff/api_diff_check.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;
using ::msprobe::testing::ReadFile;
using ::msprobe::testing::TempDir;

// The one file in `dir` whose name starts with `prefix`.
std::string OnlyFile(const std::string& dir, const std::string& prefix) {
  std::string found;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0) {
      EXPECT_TRUE(found.empty()) << "two files start with " << prefix << " in " << dir;
      found = entry.path().string();
    }
  }
  EXPECT_FALSE(found.empty()) << "no file starts with " << prefix << " in " << dir;
  return found;
}

std::string Gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  EXPECT_NE(f, nullptr) << path;
  std::string out;
  char buf[1 << 16];
  for (int n; f && (n = gzread(f, buf, sizeof(buf))) > 0;) out.append(buf, static_cast<size_t>(n));
  if (f) gzclose(f);
  return out;
}

CompareReport RunDiffAnalyze(const std::string& target, const std::string& golden, const std::string& out) {
  CompareOptions options;
  options.target_path = target;
  options.golden_path = golden;
  options.output_dir = out;
  options.diff_analyze = true;
  options.write_csv = options.write_xlsx = false;
  Result<CompareReport> report = RunCompare(options);
  EXPECT_TRUE(report.ok()) << report.status().ToString();
  return report.ok() ? std::move(*report) : CompareReport{};
}

TEST(DiffAnalyzeTest, FirstDiffBeforeCommunicationMatchesMsprobeByteForByte) {
  MSP_REQUIRE_SHARED(da, "msprobe_samples/dist2_da");
  TempDir tmp;
  const CompareReport report = RunDiffAnalyze(da + "/target/step0", da + "/golden/step0", tmp.Path("out"));
  ASSERT_EQ(report.first_diff.stage, DiffStage::kBeforeCommunication);
  ASSERT_EQ(report.first_diff.nodes.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(report.first_diff.ranks[i], static_cast<int>(i));
    EXPECT_EQ(report.first_diff.nodes[i].api, "Functional.layer_norm.0.forward");
    EXPECT_EQ(report.first_diff.nodes[i].target_name, "Functional.layer_norm.0.forward.output.0");
  }
  for (const std::string rank : {"rank0", "rank1"}) {
    const std::string ours = ReadFile(OnlyFile(tmp.Path("out"), "compare_result_" + rank + "_"));
    EXPECT_EQ(ours, Gunzip(OnlyFile(da + "/da", "compare_result_" + rank + "_"))) << rank;
  }
  EXPECT_EQ(ReadFile(report.first_diff.analyze_file), ReadFile(OnlyFile(da + "/da", "diff_analyze_")));
}

TEST(DiffAnalyzeTest, NoDiffWritesNoAnalyzeFileAndMatchesMsprobe) {
  MSP_REQUIRE_SHARED(dist2, "msprobe_samples/dist2");
  for (const auto& [target, golden, reference] : {std::tuple{"npu_stat", "bench_stat", "da_stat"},
                                              std::tuple{"npu_t", "bench_t", "da_t"}}) {
    TempDir tmp;
    const CompareReport report = RunDiffAnalyze(dist2 + "/" + target + "/step0", dist2 + "/" + golden + "/step0",
                                                tmp.Path("out"));
    EXPECT_TRUE(report.diff_analyzed);
    EXPECT_EQ(report.first_diff.stage, DiffStage::kNone) << reference;
    EXPECT_TRUE(report.first_diff.analyze_file.empty()) << reference;
    for (const auto& entry : fs::directory_iterator(tmp.Path("out"))) {
      EXPECT_NE(entry.path().filename().string().rfind("diff_analyze_", 0), 0u) << entry.path();
    }
    for (const std::string rank : {"rank0", "rank1"}) {
      const std::string ours = ReadFile(OnlyFile(tmp.Path("out"), "compare_result_" + rank + "_"));
      EXPECT_EQ(ours, ReadFile(OnlyFile(dist2 + "/" + reference, "compare_result_" + rank + "_"))) << reference << rank;
    }
  }
}

TEST(DiffAnalyzeTest, ThresholdsAndIgnoreListAgreeWithMsprobeTables) {
  MSP_REQUIRE_SHARED(tables, "msprobe_tables");
  const YAML::Node thresholds = YAML::LoadFile(tables + "/diff_analyze_threshold.yaml");
  ASSERT_EQ(thresholds["compare_metrics"].size(), 4u);
  for (const YAML::Node& metric : thresholds["compare_metrics"]) {
    const YAML::Node value = thresholds[metric.as<std::string>()];
    ASSERT_EQ(value.size(), 1u) << metric.as<std::string>();
    EXPECT_EQ(value[0].as<double>(), kDiffAnalyzeRelativeErrThreshold) << metric.as<std::string>();
  }
  const YAML::Node ignored = YAML::LoadFile(tables + "/ignore_op_list.yaml");
  ASSERT_EQ(ignored.size(), DiffAnalyzeIgnoredOutputs().size());
  for (const IgnoredOutputs& ours : DiffAnalyzeIgnoredOutputs()) {
    EXPECT_EQ(ignored[ours.api].as<std::vector<size_t>>(), ours.output_indices) << ours.api;
  }
}

// --- CheckApis on hand-built tables (docs/compare.md §8.1) ---

ResultRow StatsRow(const std::string& api, const std::string& suffix, RowState state, const std::string& norm_rel) {
  ResultRow r;
  r.api = api;
  r.target_name = r.golden_name = api + "." + suffix;
  r.state = state;
  r.matched = true;
  r.requires_grad_consistent = true;
  r.metrics.assign(8, Cell::Text("0"));
  r.metrics[kNormRel] = Cell::Text(norm_rel);
  return r;
}

TEST(ApiDiffCheckTest, OnlyOutputsAboveHalfDiffer) {
  ResultTable table;
  table.rows = {StatsRow("Torch.add.0.forward", "input.0", RowState::kInput, "90.0%"),
                StatsRow("Torch.add.0.forward", "output.0", RowState::kOutput, "50.0%"),
                StatsRow("Torch.mul.0.forward", "input.0", RowState::kInput, "0"),
                StatsRow("Torch.mul.0.forward", "output.0", RowState::kOutput, "50.00001%"),
                StatsRow("Torch.sub.0.forward", "output.0", RowState::kOutput, "inf")};
  const std::vector<ApiCheck> checks = CheckApis(table);
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_TRUE(checks[0].is_same);   // an input over 50 % and an output at exactly 50 %
  EXPECT_FALSE(checks[1].is_same);  // an output just over 50 %
  EXPECT_EQ(checks[1].diff_row, 3u);
  EXPECT_TRUE(checks[2].is_same);   // "inf" is not a "%" value
}

TEST(ApiDiffCheckTest, IgnoredFusionAttentionOutputsAndShortKeysAreSkipped) {
  ResultTable table;
  const std::string fa = "NPU.npu_fusion_attention.0.forward";
  for (int i = 0; i < 6; ++i) {
    table.rows.push_back(StatsRow(fa, "output." + std::to_string(i), RowState::kOutput, i >= 4 ? "99.0%" : "1.0%"));
  }
  table.rows.push_back(StatsRow("Torch.add.forward", "output.0", RowState::kOutput, "99.0%"));
  const std::vector<ApiCheck> checks = CheckApis(table);
  ASSERT_EQ(checks.size(), 1u);  // "Torch.add.forward" has 3 parts: skipped
  EXPECT_EQ(checks[0].api, fa);
  EXPECT_TRUE(checks[0].is_same);  // outputs 4 and 5 are ignored
}

// --- FindFirstDiff on hand-built ranks (docs/compare.md §8.2) ---

DiffOp Op(const std::string& name, bool diff, std::vector<DiffIo> inputs = {}) {
  DiffOp op;
  op.name = name;
  op.is_diff = diff;
  op.inputs = std::move(inputs);
  return op;
}

DiffIo Group(const std::string& op, const std::string& ranks) {
  return {op + ".input.group", {{"NPU max", Cell::Text(ranks)}, {"NPU P2POp peer", Cell::Text("None")}}};
}

DiffOp AllReduce(int call, bool diff) {
  const std::string name = "Distributed.all_reduce." + std::to_string(call) + ".forward";
  return Op(name, diff, {Group(name, "[0, 1]")});
}

TEST(FindFirstDiffTest, DiffBeforeFirstCommunicationWinsOnEachRank) {
  std::vector<RankDiffs> ranks = {
      {0, {Op("Torch.empty.0.forward", true), Op("Functional.linear.0.forward", true), AllReduce(0, false)}},
      {1, {Op("Functional.linear.0.forward", false), AllReduce(0, true), Op("Functional.relu.0.forward", true)}}};
  const FirstDiff diff = FindFirstDiff(ranks);
  EXPECT_EQ(diff.stage, DiffStage::kBeforeCommunication);
  ASSERT_EQ(diff.nodes.size(), 1u);  // Torch.empty is ignored; rank 1's first diff comes after its all_reduce
  EXPECT_EQ(diff.nodes[0].rank_pos, 0u);
  EXPECT_EQ(diff.nodes[0].op, 1u);
}

TEST(FindFirstDiffTest, ComputeDiffBetweenLinkedCollectivesIsFoundDuringCommunication) {
  // Both ranks all_reduce twice; rank 1 has a differing op before its second all_reduce, rank 0
  // one before its third: the lower layer wins.
  std::vector<RankDiffs> ranks = {
      {0, {AllReduce(0, false), Op("Functional.a.0.forward", false), AllReduce(1, false),
           Op("Functional.b.0.forward", true), AllReduce(2, false)}},
      {1, {AllReduce(0, false), Op("Functional.x.0.forward", false), Op("Functional.y.0.forward", true),
           AllReduce(1, false), AllReduce(2, false)}}};
  const FirstDiff diff = FindFirstDiff(ranks);
  EXPECT_EQ(diff.stage, DiffStage::kDuringCommunication);
  ASSERT_EQ(diff.nodes.size(), 1u);
  EXPECT_EQ(diff.nodes[0].rank_pos, 1u);
  EXPECT_EQ(diff.nodes[0].op, 2u);
}

TEST(FindFirstDiffTest, CommunicationOpThatDiffersIsReportedAfterTheComputeOpsBeforeIt) {
  std::vector<RankDiffs> ranks = {{0, {AllReduce(0, false), AllReduce(1, true)}},
                                  {1, {AllReduce(0, false), AllReduce(1, true)}}};
  const FirstDiff diff = FindFirstDiff(ranks);
  EXPECT_EQ(diff.stage, DiffStage::kDuringCommunication);
  ASSERT_EQ(diff.nodes.size(), 2u);  // the linked pair, rank 0 first
  EXPECT_EQ(diff.nodes[0].rank_pos, 0u);
  EXPECT_EQ(diff.nodes[0].op, 1u);
  EXPECT_EQ(diff.nodes[1].rank_pos, 1u);
  EXPECT_EQ(diff.nodes[1].op, 1u);
}

TEST(FindFirstDiffTest, DiffAfterLastCommunicationIsFoundLast) {
  std::vector<RankDiffs> ranks = {{0, {AllReduce(0, false), Op("Functional.a.0.forward", false)}},
                                  {1, {AllReduce(0, false), Op("Functional.b.0.forward", true),
                                       Op("Functional.c.0.forward", true)}}};
  const FirstDiff diff = FindFirstDiff(ranks);
  EXPECT_EQ(diff.stage, DiffStage::kAfterCommunication);
  ASSERT_EQ(diff.nodes.size(), 1u);
  EXPECT_EQ(diff.nodes[0].rank_pos, 1u);
  EXPECT_EQ(diff.nodes[0].op, 1u);
}

TEST(FindFirstDiffTest, NothingDiffersFindsNothing) {
  std::vector<RankDiffs> ranks = {{0, {Op("Functional.a.0.forward", false), AllReduce(0, false)}}};
  EXPECT_EQ(FindFirstDiff(ranks).stage, DiffStage::kNone);
  EXPECT_TRUE(FindFirstDiff(ranks).nodes.empty());
}

TEST(DiffAnalyzeTest, CommunicationAndIgnoredOpNames) {
  EXPECT_TRUE(IsCommunicationOp("Distributed.all_reduce.0.forward"));
  EXPECT_TRUE(IsCommunicationOp("MintDistributed.broadcast.1.forward"));
  EXPECT_FALSE(IsCommunicationOp("Distributed.get_rank.0.forward"));
  EXPECT_FALSE(IsCommunicationOp("Functional.all_reduce.0.forward"));
  EXPECT_TRUE(IsIgnoredOp("Torch.fill_.0.forward"));
  EXPECT_FALSE(IsIgnoredOp("Torch.add.0.forward"));
}

}  // namespace
}  // namespace msprobe::compare
