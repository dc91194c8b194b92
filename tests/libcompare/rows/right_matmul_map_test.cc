// msprobe's right_matmul yaml (docs/compare.md §4.2 step 3): the maps reversed, what msprobe skips, and
// what we refuse.
#include "msprobe/compare/rows/right_matmul_map.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace msprobe::compare {
namespace {

Result<RightMatmulMap> Parse(const std::string& yaml, std::vector<std::string>* warnings = nullptr) {
  std::vector<std::string> ignored;
  return ParseRightMatmulYaml(yaml, "rm.yaml", warnings ? warnings : &ignored);
}

TEST(RightMatmulMapTest, MapsAreReversedToDataNames) {
  const auto map = Parse(
      "mode: right_matmul\n"
      "target_tensor_map:\n  /c/a.pt: [x.pt, y.pt]\n  /c/b.npy: [y.pt]\n"
      "golden_tensor_map:\n  /c/a.pt:\n  - x.pt\n");
  ASSERT_TRUE(map.ok()) << map.status().ToString();
  EXPECT_EQ(map->source, "rm.yaml");
  EXPECT_EQ(map->target.at("x.pt"), "/c/a.pt");
  EXPECT_EQ(map->target.at("y.pt"), "/c/b.npy");  // the later path wins
  EXPECT_EQ(map->golden.size(), 1u);
  EXPECT_EQ(map->golden.at("x.pt"), "/c/a.pt");
}

TEST(RightMatmulMapTest, EmptyConfigurationsAreEmpty) {
  for (const char* yaml : {"", "mode: right_matmul\n", "mode: right_matmul\ntarget_tensor_map: {}\ngolden_tensor_map:\n"}) {
    const auto map = Parse(yaml);
    ASSERT_TRUE(map.ok()) << yaml << ": " << map.status().ToString();
    EXPECT_TRUE(map->empty()) << yaml;
  }
}

TEST(RightMatmulMapTest, AValueThatIsNotAListIsSkippedWithAWarning) {
  std::vector<std::string> warnings;
  const auto map = Parse("mode: right_matmul\ntarget_tensor_map:\n  /c/a.pt: x.pt\n  /c/b.pt: [y.pt]\n", &warnings);
  ASSERT_TRUE(map.ok());
  EXPECT_EQ(map->target.size(), 1u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "rm.yaml: invalid data_names for tensor path '/c/a.pt': expected a list, got str; skipped");
}

TEST(RightMatmulMapTest, OtherShapesAreRefused) {
  EXPECT_STATUS(Parse("- a\n"), Code::kInvalidInput, "must be a mapping");
  EXPECT_STATUS(Parse("target_tensor_map: {}\n"), Code::kInvalidInput, "unknown tensor postprocess mode None");
  EXPECT_STATUS(Parse("mode: left_matmul\n"), Code::kInvalidInput, "line 1: unknown tensor postprocess mode left_matmul");
  EXPECT_STATUS(Parse("mode: right_matmul\ntarget_tensor_map: [a]\n"), Code::kInvalidInput, "line 2: target_tensor_map must map");
  EXPECT_STATUS(Parse("mode: right_matmul\ngolden_tensor_map:\n  a.pt: [[x]]\n"), Code::kInvalidInput, "must hold data names");
  EXPECT_STATUS(Parse("mode: [\n"), Code::kInvalidInput, "invalid yaml");
}

}  // namespace
}  // namespace msprobe::compare
