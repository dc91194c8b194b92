#include "msprobe/compare/merge/merge_config.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace msprobe::compare {
namespace {

using msprobe::testing::TempDir;
using msprobe::testing::WriteFile;

// Messages quoted from docs/formats.md §5.4.
TEST(MergeConfig, EmptyDocumentIsRefused) {
  EXPECT_STATUS(ParseMergeConfig("", "c.yaml"), Code::kInvalidInput, "config.yaml is empty, please check.");
  EXPECT_STATUS(ParseMergeConfig("~\n", "c.yaml"), Code::kInvalidInput, "config.yaml is empty, please check.");
}

TEST(MergeConfig, MissingOrEmptyApiIsRefused) {
  EXPECT_STATUS(ParseMergeConfig("compare_index: [Max diff]\n", "c.yaml"), Code::kInvalidInput,
                "The APIs required to merge data were not found.");
  EXPECT_STATUS(ParseMergeConfig("api: []\n", "c.yaml"), Code::kInvalidInput,
                "The APIs required to merge data were not found.");
}

TEST(MergeConfig, ApiThatIsNotAListIsRefused) {
  EXPECT_STATUS(ParseMergeConfig("api: Distributed.all_reduce\n", "c.yaml"), Code::kInvalidInput,
                "The config format of 'api' is incorrect, please check.");
}

TEST(MergeConfig, CompareIndexThatIsNotAListIsRefused) {
  EXPECT_STATUS(ParseMergeConfig("api: [a]\ncompare_index: Max diff\n", "c.yaml"), Code::kInvalidInput,
                "The config format of 'compare_index' is incorrect, please check.");
}

TEST(MergeConfig, NullCompareIndexMeansEveryIndex) {
  auto config = ParseMergeConfig("api:\n- Distributed.all_reduce\ncompare_index:\n", "c.yaml");
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->apis, std::vector<std::string>{"Distributed.all_reduce"});
  EXPECT_TRUE(config->compare_index.empty());
  EXPECT_EQ(config->highlight_factor, 10);
}

TEST(MergeConfig, RepeatedIndexKeepsItsFirstPlace) {
  auto config = ParseMergeConfig("api: [a]\ncompare_index: [L2norm diff, Max diff, L2norm diff]\n", "c.yaml");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->compare_index, (std::vector<std::string>{"L2norm diff", "Max diff"}));
}

TEST(MergeConfig, HighlightFactorMustExceedOne) {
  auto config = ParseMergeConfig("api: [a]\nhighlight_factor: 4.5\n", "c.yaml");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->highlight_factor, 4.5);
  EXPECT_STATUS(ParseMergeConfig("api: [a]\nhighlight_factor: 1\n", "c.yaml"), Code::kInvalidInput,
                "'highlight_factor' is incorrect");
  EXPECT_STATUS(ParseMergeConfig("api: [a]\nhighlight_factor: big\n", "c.yaml"), Code::kInvalidInput,
                "'highlight_factor' is incorrect");
}

TEST(MergeConfig, BadYamlNamesTheLine) {
  EXPECT_STATUS(ParseMergeConfig("api: [a\n", "c.yaml"), Code::kInvalidInput, "The yaml file failed to load");
}

TEST(MergeConfig, PathMustEndInYaml) {
  TempDir dir;
  WriteFile(dir.Path("merge.yml"), "api: [a]\n");
  EXPECT_STATUS(LoadMergeConfig(dir.Path("merge.yml")), Code::kInvalidInput, "must end in .yaml");
  WriteFile(dir.Path("merge.yaml"), "api: [a]\n");
  EXPECT_TRUE(LoadMergeConfig(dir.Path("merge.yaml")).ok());
  EXPECT_STATUS(LoadMergeConfig(dir.Path("absent.yaml")), Code::kNotFound, "failed to load");
}

}  // namespace
}  // namespace msprobe::compare
