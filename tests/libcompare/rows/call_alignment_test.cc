// --align (docs/compare.md §3.8): the rows msprobe's matching left unmatched, paired by aligning the
// two runs' calls; on hand-made rows and on the dumps of tests/data/align (README.md there), whose
// truth is known.
#include "msprobe/compare/rows/call_alignment.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "msprobe/compare/rows/flatten.h"
#include "msprobe/dump/text/small_json.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

using ::msprobe::testing::TestData;

// ---- hand-made rows ----

// One call of `key`: an input and an output whose statistics come from `seed` (distinct per call).
void AddCall(std::vector<OpRow>* rows, const std::string& key, double seed) {
  for (const char* place : {".input.0", ".output.0"}) {
    OpRow row;
    row.api = key;
    row.name = key + place;
    row.state = place[1] == 'i' ? RowState::kInput : RowState::kOutput;
    row.dtype = "torch.float32";
    row.shape = "[2, 3]";
    const double v = seed + (row.state == RowState::kOutput ? 0.5 : 0);
    row.stats = {Cell::Float(v + 1), Cell::Float(-v), Cell::Float(v / 10), Cell::Float(2 * v + 3)};
    rows->push_back(row);
  }
}

struct Aligned {
  std::vector<RowPair> pairs;
  std::vector<float> scores;
};

Aligned Align(const std::vector<OpRow>& target, const std::vector<OpRow>& golden, const MatchOptions& match = {}) {
  Aligned a;
  a.pairs = MatchRows(target, golden, match);
  a.scores = AlignUnmatchedCalls(target, golden, match, {}, &a.pairs);
  return a;
}

// The golden row name each target row ends up with ("" for none), by target row name.
std::map<std::string, std::string> Partners(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                                            const std::vector<RowPair>& pairs) {
  std::map<std::string, std::string> partners;
  for (const RowPair& p : pairs) partners[target[p.target].name] = p.golden ? golden[*p.golden].name : "";
  return partners;
}

TEST(CallAlignmentTest, ARenamedCallPairsWithItsCounterpartAndAnExtraCallStaysAlone) {
  std::vector<OpRow> target, golden;
  AddCall(&target, "Functional.linear.0.forward", 1);
  AddCall(&target, "Torch.mul.0.forward", 2);  // only the target makes it
  AddCall(&target, "Functional.softmax.0.forward", 3);
  AddCall(&target, "Functional.linear.1.forward", 4);
  AddCall(&golden, "Functional.linear.0.forward", 1);
  AddCall(&golden, "Torch.softmax.0.forward", 3);
  AddCall(&golden, "Functional.linear.1.forward", 4);
  const Aligned a = Align(target, golden);
  const auto partners = Partners(target, golden, a.pairs);
  EXPECT_EQ(partners.at("Functional.softmax.0.forward.input.0"), "Torch.softmax.0.forward.input.0");
  EXPECT_EQ(partners.at("Functional.softmax.0.forward.output.0"), "Torch.softmax.0.forward.output.0");
  EXPECT_EQ(partners.at("Torch.mul.0.forward.input.0"), "");
  EXPECT_EQ(partners.at("Torch.mul.0.forward.output.0"), "");
  for (size_t i = 0; i < a.pairs.size(); ++i) {
    const bool softmax = target[a.pairs[i].target].api.starts_with("Functional.softmax");
    EXPECT_EQ(a.scores[i] != kNotAligned, softmax) << target[a.pairs[i].target].name;
    if (softmax) {
      EXPECT_FLOAT_EQ(a.scores[i], 1.f);
    }
  }
}

TEST(CallAlignmentTest, PairsMsprobeMadeNeverMove) {
  // Name matching pairs the target's relu.0 with the golden's relu.0 although their values say the
  // target's relu.1 is the golden's relu.0: that pair is msprobe's, and stays.
  std::vector<OpRow> target, golden;
  AddCall(&target, "Functional.relu.0.forward", 9);
  AddCall(&target, "Functional.relu.1.forward", 1);
  AddCall(&golden, "Functional.relu.0.forward", 1);
  const std::vector<RowPair> before = MatchRows(target, golden, {});
  const Aligned a = Align(target, golden);
  for (size_t i = 0; i < before.size(); ++i) {
    if (before[i].golden) {
      EXPECT_EQ(a.pairs[i], before[i]);
    }
  }
  EXPECT_EQ(Partners(target, golden, a.pairs).at("Functional.relu.1.forward.input.0"), "");
}

TEST(CallAlignmentTest, ForwardAndBackwardAlignApart) {
  // The golden lists its backward calls where the target has forward ones: no pair crosses streams.
  std::vector<OpRow> target, golden;
  AddCall(&target, "Tensor.softmax.0.forward", 1);
  AddCall(&golden, "Torch.softmax.0.backward", 1);
  const Aligned a = Align(target, golden);
  for (const RowPair& p : a.pairs) EXPECT_FALSE(p.golden);
}

TEST(CallAlignmentTest, ADebugJsonAlignsNothing) {
  std::vector<OpRow> target, golden;
  AddCall(&target, "x.0.debug", 1);
  AddCall(&golden, "y.0.debug", 1);
  MatchOptions match;
  match.is_debug = true;
  const Aligned a = Align(target, golden, match);
  for (const float s : a.scores) EXPECT_EQ(s, kNotAligned);
}

// A long run with no anchor at all (every call renamed), the target with extra calls here and there:
// the band around the gap's diagonals still meets every counterpart.
TEST(CallAlignmentTest, ALongGapOfOneOpFindsEveryCounterpart) {
  std::vector<OpRow> target, golden;
  int extra = 0;
  for (int i = 0; i < 3000; ++i) {
    if (i % 97 == 0) AddCall(&target, "Tensor.relu." + std::to_string(3000 + extra++) + ".forward", 100000 + i);
    AddCall(&target, "Tensor.relu." + std::to_string(i) + ".forward", i);
    AddCall(&golden, "Torch.relu." + std::to_string(i) + ".forward", i);
  }
  const Aligned a = Align(target, golden);
  size_t right = 0;
  for (const RowPair& p : a.pairs) {
    if (!p.golden) continue;
    ASSERT_EQ(target[p.target].name.substr(11), golden[*p.golden].name.substr(10)) << target[p.target].name;
    ++right;
  }
  EXPECT_EQ(right, 2u * 3000);
}

// ---- the fixtures ----

struct FixturePair {
  FlatDump target, golden;
  MatchOptions match;
  Aligned aligned;
};

FixturePair AlignFixture(const std::string& target_json, const std::string& golden_json) {
  FixturePair f;
  Result<FlatDump> target = FlattenDump(target_json, ""), golden = FlattenDump(golden_json, "");
  EXPECT_TRUE(target.ok() && golden.ok());
  f.target = std::move(*target);
  f.golden = std::move(*golden);
  f.match.cross_framework = f.target.framework == "mindspore" && f.golden.framework == "pytorch";
  f.aligned.pairs = MatchRows(f.target.rows, f.golden.rows, f.match);
  f.aligned.scores = AlignUnmatchedCalls(f.target.rows, f.golden.rows, f.match,
                                         {.md5 = f.target.mode == CompareMode::kMd5}, &f.aligned.pairs);
  return f;
}

// A target row's golden row by the fixture's truth: the same place in the named golden entry.
std::string Expected(const OpRow& row, const std::string& golden_entry) { return golden_entry + row.name.substr(row.api.size()); }

TEST(CallAlignmentFixtureTest, EverySoftmaxRowPairsWithItsCounterpartAndTheMulStaysAlone) {
  for (const char* mode : {"statistics", "md5", "tensor"}) {
    const std::string dir = TestData(std::string("align/softmax/") + mode);
    const FixturePair f = AlignFixture(dir + "/target/dump.json", dir + "/golden/dump.json");
    const std::vector<RowPair> by_name = MatchRows(f.target.rows, f.golden.rows, f.match);
    size_t softmax_rows = 0;
    for (size_t i = 0; i < f.aligned.pairs.size(); ++i) {
      const OpRow& row = f.target.rows[f.aligned.pairs[i].target];
      const std::optional<size_t> golden = f.aligned.pairs[i].golden;
      if (row.api.starts_with("Functional.softmax.")) {
        ++softmax_rows;
        ASSERT_TRUE(golden) << mode << ": " << row.name;
        const std::string golden_api = "Torch.softmax." + row.api.substr(19);
        EXPECT_EQ(f.golden.rows[*golden].name, Expected(row, golden_api)) << mode;
        EXPECT_NE(f.aligned.scores[i], kNotAligned);
      } else if (row.api.starts_with("Torch.mul.")) {
        EXPECT_FALSE(golden) << mode << ": " << row.name;
      } else {
        EXPECT_EQ(f.aligned.pairs[i], by_name[i]) << mode << ": " << row.name;  // name-matched or not, unchanged
      }
    }
    // Two softmax calls, forward (input, dim, output) and backward (input, output).
    EXPECT_EQ(softmax_rows, 10u) << mode;
  }
}

TEST(CallAlignmentFixtureTest, ShiftedCallsPairBySequenceWhereNameMatchingPairsNothing) {
  const FixturePair f = AlignFixture(TestData("align/shift/target/dump.json"), TestData("align/shift/golden/dump.json"));
  const std::vector<RowPair> by_name = MatchRows(f.target.rows, f.golden.rows, f.match);
  size_t tanh_rows = 0;
  for (size_t i = 0; i < f.aligned.pairs.size(); ++i) {
    const OpRow& row = f.target.rows[f.aligned.pairs[i].target];
    const std::optional<size_t> golden = f.aligned.pairs[i].golden;
    if (by_name[i].golden) {
      EXPECT_EQ(f.aligned.pairs[i], by_name[i]) << row.name;  // nothing name-matched moves
      continue;
    }
    if (!row.api.starts_with("Tensor.tanh.")) continue;
    // The target's Tensor.tanh.N+1 is the golden's Torch.tanh.N; its extra Tensor.tanh.0 has none.
    const int n = std::stoi(row.api.substr(12));
    if (n == 0) {
      EXPECT_FALSE(golden) << row.name;
      continue;
    }
    ++tanh_rows;
    ASSERT_TRUE(golden) << row.name;
    const std::string direction = row.api.substr(row.api.rfind('.'));
    EXPECT_EQ(f.golden.rows[*golden].name, Expected(row, "Torch.tanh." + std::to_string(n - 1) + direction));
  }
  EXPECT_EQ(tanh_rows, 8u);  // two calls: forward input and output, backward input and output
}

// MindSpore against PyTorch without a mapping file: every pair right by the truth, and at least as
// many right pairs as -am's built-in table makes.
struct Tally {
  size_t right = 0, wrong_aligned = 0;
};

Tally CountAgainstTruth(const FlatDump& target, const FlatDump& golden, const std::vector<RowPair>& pairs,
                        const std::vector<float>* scores, const std::map<std::string, std::string>& truth) {
  Tally t;
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (!pairs[i].golden) continue;
    const OpRow& row = target.rows[pairs[i].target];
    const auto entry = truth.find(row.api);
    const bool right = entry != truth.end() && golden.rows[*pairs[i].golden].name == Expected(row, entry->second);
    if (right) ++t.right;
    if (!right && scores != nullptr && (*scores)[i] != kNotAligned) ++t.wrong_aligned;
  }
  return t;
}

void ExpectAtLeastApiMappingWithNoWrongPair(const std::string& target, const std::string& golden,
                                            const std::map<std::string, std::string>& truth) {
  const FixturePair f = AlignFixture(target, golden);
  const Tally ours = CountAgainstTruth(f.target, f.golden, f.aligned.pairs, &f.aligned.scores, truth);
  MatchOptions am = f.match;
  const ApiMapping builtin;
  am.api_mapping = &builtin;
  const Tally theirs =
      CountAgainstTruth(f.target, f.golden, MatchRows(f.target.rows, f.golden.rows, am), nullptr, truth);
  EXPECT_EQ(ours.wrong_aligned, 0u);
  EXPECT_GE(ours.right, theirs.right);
  std::printf("%s: --align pairs %zu rows rightly, -am %zu (of %zu)\n", target.c_str(), ours.right, theirs.right,
              f.target.rows.size());
}

TEST(CallAlignmentFixtureTest, MindSporeAgainstPyTorchAlignsAtLeastAsManyRowsAsApiMappingAndNoneWrongly) {
  const std::string dir = TestData("align/mindspore/target");
  Result<nlohmann::json> truth_json = ReadSmallJsonFile(dir + "/truth.json");
  ASSERT_TRUE(truth_json.ok()) << truth_json.status().ToString();
  std::map<std::string, std::string> truth;
  for (const auto& [ms, pt] : truth_json->items()) truth[ms] = pt.get<std::string>();
  ExpectAtLeastApiMappingWithNoWrongPair(dir + "/dump.json", TestData("align/shift/golden/dump.json"), truth);
}

// msprobe's own MindSpore/PyTorch fixtures (its compare unit tests' dump_file/), read from a copy of
// its repository at test time. Their truth, from the entries' names and recorded values: the calls
// name matching leaves, and their counterparts; the rest have none (MindSpore's Tensor.__bool__, its
// FusedRMSNorm backward; the fixture's two ParallelAttention and ParallelTransformerLayer records
// disagree on every value, so nothing says they are one call).
TEST(CallAlignmentFixtureTest, MsprobesOwnMindSporeFixturesAlignAtLeastAsManyRowsAsApiMappingAndNoneWrongly) {
  const std::string repo = MSPROBE_UPSTREAM_REPO;
  if (!std::filesystem::exists(repo)) GTEST_SKIP() << "no copy of msprobe's repository at " << repo;
  testing::TempDir dir;
  const std::string fixtures = "test/msprobe_test/mindspore_ut/compare/dump_file/";
  for (const char* side : {"mindspore_data", "pytorch_data"}) {
    std::filesystem::create_directories(dir.Path(side));
    const std::string command = "git -C '" + repo + "' show 'HEAD:" + fixtures + side + "/dump.json' > '" +
                                dir.Path(side) + "/dump.json'";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
  }
  const std::string cell = "Cell.network_with_loss.module.language_model.", module = "Module.module.module.language_model.";
  const std::map<std::string, std::string> truth = {
      {"Tensor.__add__.0.forward", "Tensor.__add__.0.forward"},
      {"Tensor.__add__.1.forward", "Tensor.__add__.1.forward"},
      {"Mint.logical_or.0.forward", "Tensor.__or__.0.forward"},
      {"Distributed.all_reduce.0.forward", "Distributed.all_reduce.0.forward"},
      {cell + "embedding.word_embeddings.VocabParallelEmbedding.forward.0",
       module + "embedding.word_embeddings.VocabParallelEmbedding.forward.0"},
      {"Primitive.norm.RmsNorm.0.forward", "NPU.npu_rms_norm.0.forward"},
      {"Mint.cos.0.forward", "Torch.cos.0.forward"},
      {"Functional.flash_attention_score.0.forward", "NPU.npu_fusion_attention.0.forward"},
      {"Functional.flash_attention_score.0.backward", "NPU.npu_fusion_attention.0.backward"},
  };
  ExpectAtLeastApiMappingWithNoWrongPair(dir.Path("mindspore_data/dump.json"), dir.Path("pytorch_data/dump.json"),
                                         truth);
}

}  // namespace
}  // namespace msprobe::compare
