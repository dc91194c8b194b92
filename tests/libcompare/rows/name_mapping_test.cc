// -dm/-cm/-am yaml files and the -dm/-cm key rules (docs/compare.md §3.6).
#include "msprobe/compare/rows/name_mapping.h"

#include <gtest/gtest.h>

#include "msprobe/dump/text/python_format.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

using ::msprobe::testing::TestData;

TEST(NameMappingTest, LoadsADataMapping) {
  auto mapping = LoadDataMapping(TestData("compare/mapping/data_mapping.yaml"));
  ASSERT_TRUE(mapping.ok()) << mapping.status().ToString();
  EXPECT_EQ(mapping->target_to_golden.size(), 2u);
  EXPECT_EQ(DataMappedKey("Functional.gelu.0.forward.input.0", *mapping), "Functional.fast_gelu.0.forward.input.0");
  EXPECT_EQ(DataMappedKey("Functional.relu.0.forward.input.0", *mapping), "Functional.relu.0.forward.input.0");
}

TEST(NameMappingTest, RepeatedKeyKeepsItsFirstPlaceAndLastValue) {
  auto mapping = ParseCellMapping("a: x\nb: y\na: z\n", "cm.yaml");
  ASSERT_TRUE(mapping.ok()) << mapping.status().ToString();
  EXPECT_EQ(mapping->entries, (std::vector<std::pair<std::string, std::string>>{{"a", "z"}, {"b", "y"}}));
}

TEST(NameMappingTest, EmptyFilesAndEmptyPathsGiveEmptyMappings) {
  auto data = ParseDataMapping("", "dm.yaml");
  ASSERT_TRUE(data.ok());
  EXPECT_TRUE(data->target_to_golden.empty());
  auto cell = LoadCellMapping("");
  ASSERT_TRUE(cell.ok());
  EXPECT_TRUE(cell->entries.empty());
  auto api = LoadApiMapping("");
  ASSERT_TRUE(api.ok());
  EXPECT_TRUE(api->user_entries.empty());
}

TEST(NameMappingTest, DataMappingMustBeAMapping) {
  const std::string path = TestData("compare/mapping/data_mapping_list.yaml");
  auto mapping = LoadDataMapping(path);
  EXPECT_STATUS(mapping, Code::kInvalidInput, "line 1: data mapping must be a mapping of names");
  EXPECT_EQ(mapping.status().source(), path);
}

TEST(NameMappingTest, BrokenYamlNamesTheLine) {
  auto mapping = LoadCellMapping(TestData("compare/mapping/cell_mapping_unclosed.yaml"));
  EXPECT_STATUS(mapping, Code::kInvalidInput, "invalid yaml");
  EXPECT_NE(mapping.status().message().find("line "), std::string::npos) << mapping.status().ToString();
}

TEST(NameMappingTest, NestedValuesAreRefused) {
  EXPECT_STATUS(ParseDataMapping("a:\n  b: c\n", "dm.yaml"), Code::kInvalidInput,
                "line 1: data mapping entries must map a name to a name");
}

TEST(NameMappingTest, MissingFileIsNotFound) {
  EXPECT_STATUS(LoadDataMapping(TestData("compare/mapping/absent.yaml")), Code::kNotFound, "no such file");
}

TEST(NameMappingTest, LoadsAnApiMapping) {
  auto mapping = LoadApiMapping(TestData("compare/mapping/api_mapping.yaml"));
  ASSERT_TRUE(mapping.ok()) << mapping.status().ToString();
  ASSERT_EQ(mapping->user_entries.size(), 1u);
  const ApiMappingEntry& entry = mapping->user_entries[0];
  EXPECT_EQ(entry.ms_api, "Functional.foo");
  EXPECT_EQ(entry.pt_api, "Torch.bar");
  EXPECT_EQ(entry.ms_args, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(entry.pt_args, (std::vector<std::string>{"1", "0"}));
  EXPECT_EQ(entry.pt_outputs, (std::vector<std::string>{"0"}));
  EXPECT_TRUE(entry.ms_parameters.empty());
}

TEST(NameMappingTest, ApiMappingListsMustBeLists) {
  EXPECT_STATUS(LoadApiMapping(TestData("compare/mapping/api_mapping_args_not_list.yaml")), Code::kInvalidInput,
                "line 3: ms_args must be a list");
  EXPECT_STATUS(ParseApiMapping("ms_api: Functional.foo\n", "am.yaml"), Code::kInvalidInput,
                "line 1: api mapping must be a list of api entries");
}

TEST(CellMappingTest, RulesOnlyTurnTheFirstCellIntoModule) {
  const CellMapping rules;
  EXPECT_EQ(CellMappedKey("Cell.fc1.Dense.forward.0.input.0", rules), "Module.fc1.Dense.forward.0.input.0");
  EXPECT_EQ(CellMappedKey("Cell.fc1.Dense.parameters_grad.weight", rules), "Module.fc1.Dense.parameters_grad.weight");
  // The first "Cell" substring, wherever it is (msprobe's str.replace).
  EXPECT_EQ(CellMappedKey("Functional.CellSum.0.forward.input.0", rules), "Functional.ModuleSum.0.forward.input.0");
}

TEST(CellMappingTest, NamesWithoutADirectionGetNotApplicable) {
  const CellMapping rules;
  EXPECT_EQ(CellMappedKey("Cell.fc1.Dense.0.input.0", rules), "N/A");
  EXPECT_EQ(CellMappedKey("Cell.fc1.Dense.forward", rules), "N/A");  // needs ".forward."
  EXPECT_EQ(CellMappedKey("", rules), "N/A");
}

TEST(CellMappingTest, ExactCellNameIsReplaced) {
  const CellMapping mapping{{{"fc2.Dense", "fc2.Linear"}}};
  EXPECT_EQ(CellMappedKey("Cell.fc2.Dense.forward.0.input.0", mapping), "Module.fc2.Linear.forward.0.input.0");
  EXPECT_EQ(CellMappedKey("Cell.fc2.Dense.backward.1.output.0", mapping), "Module.fc2.Linear.backward.1.output.0");
}

TEST(CellMappingTest, OtherwiseEachKeyIsReplacedOnceInYamlOrder) {
  const CellMapping mapping{{{"Dense", "Linear"}, {"Linear", "Lin"}, {"net", "model"}}};
  // cell name "net.fc.Dense.Dense": Dense → Linear once, then that Linear → Lin, then net → model.
  EXPECT_EQ(CellMappedKey("Cell.net.fc.Dense.Dense.forward.0.input.0", mapping),
            "Module.model.fc.Lin.Dense.forward.0.input.0");
}

// The key rules rewrite names with Python's str.replace; expected values are Python's.
TEST(CellMappingTest, PythonReplaceMatchesStrReplace) {
  EXPECT_EQ(PythonReplace("abc", "", "X"), "XaXbXcX");
  EXPECT_EQ(PythonReplace("abc", "", "X", 1), "Xabc");
  EXPECT_EQ(PythonReplace("", "", "X"), "X");
  EXPECT_EQ(PythonReplace("aaa", "a", "b", 2), "bba");
  EXPECT_EQ(PythonReplace("Mint.Mintx", "Mint", "Torch"), "Torch.Torchx");
}

}  // namespace
}  // namespace msprobe::compare
