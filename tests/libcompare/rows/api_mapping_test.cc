// The built-in -am rules and our API table (docs/compare.md §3.6).
#include "msprobe/compare/rows/api_mapping.h"

#include <gtest/gtest.h>

#include <map>

#include "test_support.h"

namespace msprobe::compare {
namespace {

TEST(ApiMappingTest, MintBecomesTorch) {
  EXPECT_EQ(BuiltinApiMappedKey("Mint.add.0.forward.input.0"), "Torch.add.0.forward.input.0");
  // Every "Mint" in the name, as msprobe's str.replace does.
  EXPECT_EQ(BuiltinApiMappedKey("Mint.Mintx.0.forward.input.0"), "Torch.Torchx.0.forward.input.0");
}

TEST(ApiMappingTest, MintFunctionalBecomesFunctional) {
  EXPECT_EQ(BuiltinApiMappedKey("MintFunctional.relu.0.forward.output.0"), "Functional.relu.0.forward.output.0");
}

TEST(ApiMappingTest, TableEntriesRenameTheApi) {
  EXPECT_EQ(BuiltinApiMappedKey("Functional.abs.2.backward.input.0"), "Torch.abs.2.backward.input.0");
  EXPECT_EQ(BuiltinApiMappedKey("Functional.dense.0.forward.input.1"), "Functional.linear.0.forward.input.1");
  EXPECT_EQ(BuiltinApiMappedKey("Tensor.swapaxes.0.forward.output.0"), "Tensor.transpose.0.forward.output.0");
  EXPECT_EQ(BuiltinApiTarget("Functional.abs"), "Torch.abs");
}

TEST(ApiMappingTest, OtherApisKeepTheirNames) {
  EXPECT_EQ(BuiltinApiMappedKey("Functional.relu.0.forward.input.0"), "Functional.relu.0.forward.input.0");
  EXPECT_EQ(BuiltinApiMappedKey("Tensor.add.0.forward.input.0"), "Tensor.add.0.forward.input.0");
  EXPECT_EQ(BuiltinApiMappedKey("Cell.fc.Dense.forward.0.input.0"), "Cell.fc.Dense.forward.0.input.0");
  EXPECT_EQ(BuiltinApiMappedKey("single"), "single");
  EXPECT_FALSE(BuiltinApiTarget("Functional.absolute_value").has_value());
  EXPECT_FALSE(BuiltinApiTarget("Torch.abs").has_value());
}

// Our table is our own data; where it names an API, msprobe's ms_to_pt_api.yaml must agree.
TEST(ApiMappingTest, TableAgreesWithMsprobesTable) {
  MSP_REQUIRE_SHARED(path, "msprobe_tables/ms_to_pt_api.yaml");
  auto msprobe_table = LoadDataMapping(path);  // a flat {ms_api: pt_api} dict
  ASSERT_TRUE(msprobe_table.ok()) << msprobe_table.status().ToString();
  const auto ours = BuiltinApiTable();
  ASSERT_FALSE(ours.empty());
  for (const auto& [ms, pt] : ours) {
    auto it = msprobe_table->target_to_golden.find(ms);
    ASSERT_NE(it, msprobe_table->target_to_golden.end()) << ms << " is not in msprobe's table";
    EXPECT_EQ(it->second, pt) << ms;
  }
  // And where msprobe's table keeps a name, so do our rules.
  size_t kept = 0;
  for (const auto& [ms, pt] : msprobe_table->target_to_golden) {
    if (ms != pt) continue;
    ++kept;
    EXPECT_FALSE(BuiltinApiTarget(ms).has_value()) << ms;
  }
  EXPECT_GT(kept, 200u);
}

}  // namespace
}  // namespace msprobe::compare
