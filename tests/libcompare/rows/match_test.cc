// MatchRows: compare keys, the exact join, the dtype rule and the mappings (docs/compare.md §3).
#include "msprobe/compare/rows/match.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "msprobe/compare/rows/flatten.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

using ::msprobe::testing::TestData;

// A row of API key `key` ("Functional.relu.3.backward", "Module.fc.Linear.forward.0"); call orders
// are given by hand.
OpRow Row(const std::string& key, const std::string& suffix, const std::string& dtype = "torch.float32",
          int backward_call_order = 0, RowState state = RowState::kInput) {
  OpRow row;
  row.name = key + suffix;
  row.api = key;
  row.state = state;
  row.dtype = dtype;
  row.backward_call_order = backward_call_order;
  return row;
}

RowPair Pair(size_t target, size_t golden) { return {target, golden}; }
RowPair Unmatched(size_t target) { return {target, std::nullopt}; }

TEST(MatchTest, BackwardRowsPairByFileOrderPerOp) {
  // Verified G3 behaviour (docs/compare.md §3.1): target relu.3/.5.backward matched golden relu.1/.0.backward,
  // the golden file holding .1 before .0.
  const std::vector<OpRow> target = {Row("Functional.relu.3.backward", ".input.0", "torch.float32", 0),
                                  Row("Functional.relu.5.backward", ".input.0", "torch.float32", 1)};
  const std::vector<OpRow> golden = {Row("Functional.relu.1.backward", ".input.0", "torch.float32", 0),
                                    Row("Functional.relu.0.backward", ".input.0", "torch.float32", 1)};
  EXPECT_EQ(MatchRows(target, golden, {}), (std::vector<RowPair>{Pair(0, 0), Pair(1, 1)}));
}

TEST(MatchTest, RenumberedNameReplacesTheCallNumberOfBackwardRowsOnly) {
  EXPECT_EQ(BackwardRenumberedName(Row("Functional.relu.3.backward", ".input.0", "x", 0)),
            "Functional.relu.0.backward.input.0");
  EXPECT_EQ(BackwardRenumberedName(Row("Module.fc.Linear.backward.2", ".output.0", "x", 1)),
            "Module.fc.Linear.backward.1.output.0");
  // Only the key's last two parts make it a backward key: a module named "backward" stays as it is.
  EXPECT_EQ(BackwardRenumberedName(Row("Module.backward.Linear.forward.0", ".output.0", "x", 3)),
            "Module.backward.Linear.forward.0.output.0");
  EXPECT_EQ(BackwardRenumberedName(Row("Functional.relu.3.forward", ".input.0", "x", 7)),
            "Functional.relu.3.forward.input.0");
}

TEST(MatchTest, ForwardNumbersAreNotRenumbered) {
  const std::vector<OpRow> target = {Row("Functional.relu.3.forward", ".input.0")};
  const std::vector<OpRow> golden = {Row("Functional.relu.0.forward", ".input.0")};
  EXPECT_EQ(MatchRows(target, golden, {}), (std::vector<RowPair>{Unmatched(0)}));
}

TEST(MatchTest, DebugJsonIsNotRenumbered) {
  const std::vector<OpRow> target = {Row("Functional.relu.3.backward", ".input.0", "torch.float32", 0)};
  const std::vector<OpRow> golden = {Row("Functional.relu.1.backward", ".input.0", "torch.float32", 0)};
  MatchOptions options;
  options.is_debug = true;
  EXPECT_EQ(MatchRows(target, golden, options), (std::vector<RowPair>{Unmatched(0)}));
  EXPECT_EQ(MatchRows(target, golden, {}), (std::vector<RowPair>{Pair(0, 0)}));
}

TEST(MatchTest, KeepsTargetOrderAndDropsGoldenOnlyRows) {
  const std::vector<OpRow> target = {Row("Torch.a.0.forward", ".input.0"), Row("Torch.b.0.forward", ".input.0"),
                                  Row("Torch.c.0.forward", ".input.0")};
  const std::vector<OpRow> golden = {Row("Torch.c.0.forward", ".input.0"), Row("Torch.x.0.forward", ".input.0"),
                                    Row("Torch.a.0.forward", ".input.0")};
  EXPECT_EQ(MatchRows(target, golden, {}), (std::vector<RowPair>{Pair(0, 2), Unmatched(1), Pair(2, 0)}));
}

TEST(MatchTest, DuplicateKeysGiveTheCrossProduct) {
  const std::vector<OpRow> target = {Row("Torch.a.0.forward", ".input.0"), Row("Torch.a.0.forward", ".input.0"),
                                  Row("Torch.b.0.forward", ".input.0")};
  const std::vector<OpRow> golden = {Row("Torch.a.0.forward", ".input.0"), Row("Torch.b.0.forward", ".input.0"),
                                    Row("Torch.a.0.forward", ".input.0", "torch.int64")};
  // The second golden `a` fails the dtype rule, so those pairs stay as unmatched rows.
  EXPECT_EQ(MatchRows(target, golden, {}), (std::vector<RowPair>{Pair(0, 0), Unmatched(0), Pair(1, 0), Unmatched(1),
                                                             Pair(2, 1)}));
}

// Thousands of keys over many hash shards, a third of them repeated on one side or the other: the
// pairs are exactly those of the join's definition, written out here as nested loops.
TEST(MatchTest, LargeJoinIsTheJoinDefinition) {
  std::vector<OpRow> target, golden;
  for (size_t i = 0; i < 3000; ++i)
    target.push_back(Row("Torch.op" + std::to_string(i * 7 % 2000) + ".0.forward", ".input.0"));
  for (size_t i = 0; i < 2500; ++i)
    golden.push_back(Row("Torch.op" + std::to_string(i * 11 % 2300) + ".0.forward", ".input.0"));
  std::vector<RowPair> expected;
  for (size_t n = 0; n < target.size(); ++n) {
    const size_t before = expected.size();
    for (size_t b = 0; b < golden.size(); ++b) {
      if (target[n].name == golden[b].name) expected.push_back(Pair(n, b));
    }
    if (expected.size() == before) expected.push_back(Unmatched(n));
  }
  EXPECT_EQ(MatchRows(target, golden, {}), expected);
}

TEST(MatchTest, DtypeRule) {
  EXPECT_TRUE(DtypesCompatible("torch.float16", "torch.float32", false));
  EXPECT_TRUE(DtypesCompatible("torch.bfloat16", "torch.float16", false));
  EXPECT_TRUE(DtypesCompatible("BFloat16", "Float32", false));
  EXPECT_TRUE(DtypesCompatible("torch.int64", "torch.int64", false));
  EXPECT_FALSE(DtypesCompatible("torch.float64", "torch.float32", false));
  EXPECT_FALSE(DtypesCompatible("<class 'int'>", "<class 'float'>", false));
  EXPECT_FALSE(DtypesCompatible("Float32", "torch.float32", false));

  const std::vector<OpRow> target = {Row("Torch.a.0.forward", ".input.0", "torch.float16"),
                                  Row("Torch.a.0.forward", ".input.1", "torch.float64"),
                                  Row("Torch.a.0.forward", ".input.2", "<class 'int'>")};
  const std::vector<OpRow> golden = {Row("Torch.a.0.forward", ".input.0", "torch.float32"),
                                    Row("Torch.a.0.forward", ".input.1", "torch.float32"),
                                    Row("Torch.a.0.forward", ".input.2", "<class 'float'>")};
  EXPECT_EQ(MatchRows(target, golden, {}), (std::vector<RowPair>{Pair(0, 0), Unmatched(1), Unmatched(2)}));
}

TEST(MatchTest, CrossFrameworkDtypesCompareByCoarseClass) {
  EXPECT_TRUE(DtypesCompatible("Float32", "torch.float32", true));
  EXPECT_TRUE(DtypesCompatible("Float64", "torch.float16", true));
  EXPECT_TRUE(DtypesCompatible("Int32", "torch.int64", true));
  EXPECT_TRUE(DtypesCompatible("Bool", "torch.bool", true));
  EXPECT_TRUE(DtypesCompatible("Complex64", "torch.complex128", true));
  EXPECT_TRUE(DtypesCompatible("<class 'int'>", "<class 'int'>", true));
  EXPECT_FALSE(DtypesCompatible("Float32", "torch.int32", true));
  EXPECT_FALSE(DtypesCompatible("Bool", "torch.uint8", true));

  MatchOptions options;
  options.cross_framework = true;
  const std::vector<OpRow> target = {Row("Tensor.add.0.forward", ".input.0", "Float32")};
  const std::vector<OpRow> golden = {Row("Tensor.add.0.forward", ".input.0", "torch.float32")};
  EXPECT_EQ(MatchRows(target, golden, options), (std::vector<RowPair>{Pair(0, 0)}));
  EXPECT_EQ(MatchRows(target, golden, {}), (std::vector<RowPair>{Unmatched(0)}));
}

TEST(MatchTest, FuzzyMatchIgnoresCallNumbersAndKeepsTheDtypeRule) {
  const std::vector<OpRow> target = {Row("Functional.relu.3.forward", ".input.0"),
                                  Row("Functional.relu.3.forward", ".output.0", "torch.float64")};
  const std::vector<OpRow> golden = {Row("Functional.relu.0.forward", ".input.0"),
                                    Row("Functional.relu.0.forward", ".output.0")};
  MatchOptions options;
  options.fuzzy = true;
  EXPECT_EQ(MatchRows(target, golden, options), (std::vector<RowPair>{Pair(0, 0), Unmatched(1)}));
}

TEST(MatchTest, DataMappingIsALeftJoinWithoutTheDtypeRule) {
  auto mapping = LoadDataMapping(TestData("compare/mapping/data_mapping.yaml"));
  ASSERT_TRUE(mapping.ok()) << mapping.status().ToString();
  const std::vector<OpRow> target = {Row("Functional.gelu.0.forward", ".input.0", "torch.float64"),
                                  Row("Functional.gelu.0.forward", ".output.0"),
                                  Row("Functional.relu.0.forward", ".input.0")};
  const std::vector<OpRow> golden = {Row("Functional.relu.0.forward", ".input.0"),
                                    Row("Functional.fast_gelu.0.forward", ".output.0"),
                                    Row("Functional.fast_gelu.0.forward", ".input.0")};
  MatchOptions options;
  options.data_mapping = &*mapping;
  EXPECT_EQ(MatchRows(target, golden, options), (std::vector<RowPair>{Pair(0, 2), Pair(1, 1), Pair(2, 0)}));
}

TEST(MatchTest, MappedTargetKeysAreNotRenumberedButGoldenKeysAre) {
  // G3 maps the target row name as dumped while the golden key is op_name_update (docs/compare.md §3.1).
  DataMapping mapping;
  const std::vector<OpRow> target = {Row("Functional.relu.3.backward", ".input.0", "torch.float32", 0)};
  const std::vector<OpRow> golden = {Row("Functional.relu.3.backward", ".input.0", "torch.float32", 0)};
  MatchOptions options;
  options.data_mapping = &mapping;
  EXPECT_EQ(TargetCompareKeys(target, golden, options),
            (std::vector<std::string>{"Functional.relu.3.backward.input.0"}));
  EXPECT_EQ(GoldenCompareKeys(golden, options), (std::vector<std::string>{"Functional.relu.0.backward.input.0"}));
  EXPECT_EQ(MatchRows(target, golden, options), (std::vector<RowPair>{Unmatched(0)}));
}

TEST(MatchTest, CellMappingRenamesDenseToLinear) {
  auto mapping = LoadCellMapping(TestData("compare/mapping/cell_mapping.yaml"));
  ASSERT_TRUE(mapping.ok()) << mapping.status().ToString();
  const std::vector<OpRow> target = {Row("Cell.fc2.Dense.forward.0", ".input.0", "Float32"),
                                  Row("Cell.fc1.Linear.forward.0", ".input.0", "Float32")};
  const std::vector<OpRow> golden = {Row("Module.fc1.Linear.forward.0", ".input.0"),
                                    Row("Module.fc2.Linear.forward.0", ".input.0")};
  MatchOptions options;
  options.cell_mapping = &*mapping;
  options.cross_framework = true;
  EXPECT_EQ(MatchRows(target, golden, options), (std::vector<RowPair>{Pair(0, 1), Pair(1, 0)}));
}

TEST(MatchTest, ApiMappingTurnsMintIntoTorchAndUsesTheTable) {
  const std::vector<OpRow> target = {Row("Mint.add.0.forward", ".input.0", "Float32"),
                                  Row("MintFunctional.relu.0.forward", ".input.0", "Float32"),
                                  Row("Functional.abs.0.forward", ".input.0", "Float32"),
                                  Row("Functional.dense.0.forward", ".input.0", "Float32")};
  const std::vector<OpRow> golden = {Row("Functional.linear.0.forward", ".input.0"),
                                    Row("Torch.abs.0.forward", ".input.0"),
                                    Row("Functional.relu.0.forward", ".input.0"),
                                    Row("Torch.add.0.forward", ".input.0")};
  const ApiMapping builtin;
  MatchOptions options;
  options.api_mapping = &builtin;
  options.cross_framework = true;
  EXPECT_EQ(MatchRows(target, golden, options), (std::vector<RowPair>{Pair(0, 3), Pair(1, 2), Pair(2, 1), Pair(3, 0)}));
}

TEST(MatchTest, UserApiMappingRemapsIndicesAndAbandonsUnlistedOnes) {
  auto mapping = LoadApiMapping(TestData("compare/mapping/api_mapping.yaml"));
  ASSERT_TRUE(mapping.ok()) << mapping.status().ToString();
  const std::vector<OpRow> target = {
      Row("Functional.foo.0.forward", ".input.0"), Row("Functional.foo.0.forward", ".input.1"),
      Row("Functional.foo.0.forward", ".input.2"),
      Row("Functional.foo.0.forward", ".output.0", "torch.float32", 0, RowState::kOutput)};
  const std::vector<OpRow> golden = {
      Row("Torch.bar.0.forward", ".input.0"), Row("Torch.bar.0.forward", ".input.1"),
      Row("Torch.bar.0.forward", ".input.2"),
      Row("Torch.bar.0.forward", ".output.0", "torch.float32", 0, RowState::kOutput)};
  MatchOptions options;
  options.api_mapping = &*mapping;
  EXPECT_EQ(TargetCompareKeys(target, golden, options),
            (std::vector<std::string>{"Torch.bar.0.forward.input.1", "Torch.bar.0.forward.input.0",
                                      "Torch.bar.0.forward.input.2abandoned", "Torch.bar.0.forward.output.0"}));
  EXPECT_EQ(MatchRows(target, golden, options),
            (std::vector<RowPair>{Pair(0, 1), Pair(1, 0), Unmatched(2), Pair(3, 3)}));
}

TEST(MatchTest, UserApiMappingNeedsTheGoldenApi) {
  auto mapping = LoadApiMapping(TestData("compare/mapping/api_mapping.yaml"));
  ASSERT_TRUE(mapping.ok()) << mapping.status().ToString();
  const std::vector<OpRow> target = {Row("Functional.foo.0.forward", ".input.0")};
  const std::vector<OpRow> golden = {Row("Functional.foo.0.forward", ".input.0")};
  MatchOptions options;
  options.api_mapping = &*mapping;
  EXPECT_EQ(MatchRows(target, golden, options), (std::vector<RowPair>{Pair(0, 0)}));
}

TEST(MatchTest, EmptySidesGiveUnmatchedOrNothing) {
  const std::vector<OpRow> rows = {Row("Torch.a.0.forward", ".input.0")};
  EXPECT_EQ(MatchRows(rows, {}, {}), (std::vector<RowPair>{Unmatched(0)}));
  EXPECT_TRUE(MatchRows({}, rows, {}).empty());
}

// The first two fields (NPU Name, Bench Name) of each record of a CSV msprobe wrote; quoted
// fields may hold commas, doubled quotes and newlines.
std::vector<std::pair<std::string, std::string>> NameColumns(const std::string& csv) {
  std::vector<std::pair<std::string, std::string>> out;
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < csv.size(); ++i) {
    const char c = csv[i];
    if (quoted) {
      if (c == '"' && i + 1 < csv.size() && csv[i + 1] == '"') { fields.back() += '"'; ++i; }
      else if (c == '"') quoted = false;
      else fields.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < csv.size() && csv[i + 1] == '\n') ++i;
      if (fields.size() >= 2) out.emplace_back(fields[0], fields[1]);
      fields.assign(1, "");
    } else {
      fields.back() += c;
    }
  }
  return out;
}

// msprobe's own G3 CSVs for dist2_da target vs golden: same rows, same order, same golden names.
TEST(MatchTest, AgreesWithMsprobeCsvOnDist2Da) {
  MSP_REQUIRE_SHARED(root, "msprobe_samples/dist2_da");
  for (const std::string rank : {"rank0", "rank1"}) {
    std::string csv_path;
    for (const auto& entry : std::filesystem::directory_iterator(root + "/cmp")) {
      if (entry.path().filename().string().starts_with("compare_result_" + rank + "_")) csv_path = entry.path().string();
    }
    ASSERT_FALSE(csv_path.empty()) << rank;
    auto target = FlattenDump(root + "/target/step0/" + rank + "/dump.json", "");
    auto golden = FlattenDump(root + "/golden/step0/" + rank + "/dump.json", "");
    ASSERT_TRUE(target.ok()) << target.status().ToString();
    ASSERT_TRUE(golden.ok()) << golden.status().ToString();

    const auto expected = NameColumns(::msprobe::testing::ReadFile(csv_path));
    ASSERT_GT(expected.size(), 1u);
    const std::vector<RowPair> pairs = MatchRows(target->rows, golden->rows, {});
    ASSERT_EQ(pairs.size() + 1, expected.size()) << rank;  // + the header
    for (size_t i = 0; i < pairs.size(); ++i) {
      EXPECT_EQ(target->rows[pairs[i].target].name, expected[i + 1].first) << rank << " row " << i;
      EXPECT_EQ(pairs[i].golden ? golden->rows[*pairs[i].golden].name : "N/A", expected[i + 1].second)
          << rank << " row " << i;
    }
  }
}

}  // namespace
}  // namespace msprobe::compare
