// -lm (docs/compare.md §3.7): the layer-mapping yaml, the module trees of both dumps and the row mapping.
#include "msprobe/compare/rows/layer_mapping.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "msprobe/compare/rows/flatten.h"
#include "msprobe/compare/rows/match.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

using ::msprobe::testing::TestData;

TEST(LayerMappingYaml, CellMeansTopLayerAndLongerRulesComeFirst) {
  auto m = ParseLayerMapping("Cell:\n  a: x\nBlock:\n  z: y\n  z.b.c: q\n  z.d: r\n", "t.yaml");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ(m->by_class.count("Cell"), 0u);
  EXPECT_EQ(m->by_class.at("TopLayer").at("a")[0].target, "x");
  const auto& z = m->by_class.at("Block").at("z");
  ASSERT_EQ(z.size(), 3u);
  EXPECT_EQ(z[0].origin, "z.b.c");
  EXPECT_EQ(z[0].level, 3u);
  EXPECT_EQ(z[1].origin, "z.d");
  EXPECT_EQ(z[2].origin, "z");
}

TEST(LayerMappingYaml, BadInputIsOneErrorNamingTheFile) {
  for (const char* bad : {"[1, 2]", "A: [x]", "A:\n  b: [c]", "A: {b: c", "A: 3"}) {
    auto m = ParseLayerMapping(bad, "bad.yaml");
    ASSERT_FALSE(m.ok()) << bad;
    EXPECT_NE(m.status().ToString().find("bad.yaml"), std::string::npos) << m.status().ToString();
  }
  EXPECT_TRUE(ParseLayerMapping("", "empty.yaml").ok());
  EXPECT_FALSE(LoadLayerMapping(TestData("layer_mapping/no_such.yaml")).ok());
}

LayerDumpInfo Info(std::string framework, std::vector<std::string> keys,
                   std::unordered_map<std::string, std::string> parent) {
  LayerDumpInfo info;
  info.framework = std::move(framework);
  info.source = "dump.json";
  info.keys = std::move(keys);
  info.parent = std::move(parent);
  return info;
}

TEST(LayerMappingPairs, MultiLevelRuleBackwardAndUnmapped) {
  // "attn.proj" (two levels) under Block becomes "o_proj"; backward entries follow their forward scope;
  // a repeated call pairs by position; a cell with no counterpart pairs with nothing.
  const LayerDumpInfo ms = Info("mindspore",
                                {"Cell.blk.Block.forward.0", "Cell.blk.attn.proj.Dense.forward.0",
                                 "Cell.blk.attn.proj.Dense.forward.1", "Mint.add.0.forward", "Mint.add.0.backward",
                                 "Cell.blk.extra.Identity.forward.0"},
                                {{"Mint.add.0.forward", "Cell.blk.Block.forward.0"}});
  const LayerDumpInfo pt = Info("pytorch",
                                {"Module.blk.Block.forward.0", "Module.blk.o_proj.Linear.forward.0",
                                 "Module.blk.o_proj.Linear.forward.1", "Torch.add.3.forward", "Torch.add.3.backward"},
                                {{"Torch.add.3.forward", "Module.blk.Block.forward.0"}});
  auto rules = ParseLayerMapping("Block:\n  attn.proj: o_proj\n", "t.yaml");
  ASSERT_TRUE(rules.ok());
  auto pairs = PairLayerEntries(ms, pt, *rules);
  ASSERT_TRUE(pairs.ok()) << pairs.status().ToString();
  EXPECT_EQ(pairs->at("Cell.blk.Block.forward.0"), "Module.blk.Block.forward.0");
  EXPECT_EQ(pairs->at("Cell.blk.attn.proj.Dense.forward.0"), "Module.blk.o_proj.Linear.forward.0");
  EXPECT_EQ(pairs->at("Cell.blk.attn.proj.Dense.forward.1"), "Module.blk.o_proj.Linear.forward.1");
  EXPECT_EQ(pairs->at("Mint.add.0.forward"), "Torch.add.3.forward");
  EXPECT_EQ(pairs->at("Mint.add.0.backward"), "Torch.add.3.backward");
  EXPECT_EQ(pairs->at("Cell.blk.extra.Identity.forward.0"), "");

  // Without the rule the renamed cell finds nothing.
  auto plain = PairLayerEntries(ms, pt, LayerMapping{});
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->at("Cell.blk.attn.proj.Dense.forward.0"), "");
  EXPECT_EQ(plain->at("Mint.add.0.forward"), "Torch.add.3.forward");
}

TEST(LayerMappingPairs, ShortNamesAreAnError) {
  const LayerDumpInfo ms = Info("mindspore", {"Mint.add"}, {});
  EXPECT_FALSE(PairLayerEntries(ms, ms, LayerMapping{}).ok());
}

TEST(LayerMappingFixtures, RenamedModelPairsRowByRow) {
  const std::string ms_json = TestData("layer_mapping/mindspore/dump.json");
  const std::string pt_json = TestData("layer_mapping/pytorch/dump.json");
  auto ms = ReadLayerDumpInfo(ms_json, "mindspore");
  auto pt = ReadLayerDumpInfo(pt_json, "pytorch");
  ASSERT_TRUE(ms.ok()) << ms.status().ToString();
  ASSERT_TRUE(pt.ok()) << pt.status().ToString();
  auto rules = LoadLayerMapping(TestData("layer_mapping/layer_mapping.yaml"));
  ASSERT_TRUE(rules.ok()) << rules.status().ToString();
  auto pairs = PairLayerEntries(*ms, *pt, *rules);
  ASSERT_TRUE(pairs.ok());
  EXPECT_EQ(pairs->at("Cell.embedding.Dense.forward.0"), "Module.embed.Linear.forward.0");
  EXPECT_EQ(pairs->at("Functional.dense.0.forward"), "Functional.linear.0.forward");  // Dense: {dense: linear}
  EXPECT_EQ(pairs->at("MintFunctional.linear.2.forward"), "Functional.linear.3.forward");
  EXPECT_EQ(pairs->at("Mint.relu.1.forward"), "Functional.relu.1.forward");
  EXPECT_EQ(pairs->at("Cell.blocks.1.ffn.Dense.forward.0"), "Module.layers.1.mlp.Linear.forward.0");
  EXPECT_EQ(pairs->at("Cell.blocks.1.ffn.dropout.Dropout.forward.0"), "");

  auto ms_flat = FlattenDump(ms_json, "", {});
  auto pt_flat = FlattenDump(pt_json, "", {});
  ASSERT_TRUE(ms_flat.ok() && pt_flat.ok());
  const DataMapping rows = LayerDataMapping(*pairs, ms_flat->rows, pt_flat->rows);
  EXPECT_EQ(rows.target_to_golden.at("Functional.dense.0.forward.input.1"), "Functional.linear.0.forward.input.1");
  EXPECT_EQ(rows.target_to_golden.at("Cell.blocks.0.attention.Dense.forward.0.output.0"),
            "Module.layers.0.attn.Linear.forward.0.output.0");
  EXPECT_EQ(rows.target_to_golden.at("Cell.blocks.1.ffn.dropout.Dropout.forward.0.input.0"), "N/A");

  // Every row but the MindSpore-only cell's pairs; without the mapping, only Tensor.__add__ (same name).
  MatchOptions with;
  with.cross_framework = true;
  with.data_mapping = &rows;
  MatchOptions without;
  without.cross_framework = true;
  size_t matched_with = 0, matched_without = 0;
  for (const RowPair& p : MatchRows(ms_flat->rows, pt_flat->rows, with)) matched_with += p.golden.has_value();
  for (const RowPair& p : MatchRows(ms_flat->rows, pt_flat->rows, without)) matched_without += p.golden.has_value();
  EXPECT_EQ(matched_with, ms_flat->rows.size() - 2);
  EXPECT_EQ(matched_without, 6u);
}

TEST(LayerMappingFixtures, MissingConstructJsonIsAnError) {
  const auto dir = std::filesystem::temp_directory_path() / ("lm_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(TestData("layer_mapping/mindspore/dump.json"), dir / "dump.json",
                             std::filesystem::copy_options::overwrite_existing);
  auto info = ReadLayerDumpInfo((dir / "dump.json").string(), "mindspore");
  std::filesystem::remove_all(dir);
  ASSERT_FALSE(info.ok());
  EXPECT_NE(info.status().ToString().find("construct.json"), std::string::npos);
}

}  // namespace
}  // namespace msprobe::compare
