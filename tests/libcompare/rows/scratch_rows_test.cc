// The MoE scratch-row rules (docs/compare.md §4.2 step 3): which entries and kwarg, the valid length a
// group tensor gives, and which result rows get it.
#include "msprobe/compare/rows/scratch_rows.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "msprobe/dump/formats/npy_writer.h"
#include "msprobe/dump/text/json_file.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

std::optional<ScratchEntry> EntryOf(std::string_view key, const std::string& json) {
  Result<JsonDocument> doc = ParseJsonText(json, "test");
  EXPECT_TRUE(doc.ok()) << doc.status().ToString();
  return ScratchEntryOf(key, *doc);
}

constexpr char kGroupList[] =
    R"({"input_kwargs": {"group_list": {"type": "torch.Tensor", "dtype": "torch.int64", "shape": [2],
        "data_name": "NPU.npu_grouped_matmul.0.forward.kwargs.group_list.pt"}}})";

TEST(ScratchRowsTest, KeyContainingTheApiNameTakesItsKwargFile) {
  for (const char* key : {"NPU.npu_grouped_matmul.0.forward", "Torch.npu_grouped_matmul_finalize_routing.3.forward",
                          "Module.moe.npu_grouped_matmul.0.backward"}) {
    const auto entry = EntryOf(key, kGroupList);
    ASSERT_TRUE(entry) << key;
    EXPECT_EQ(entry->key, key);
    EXPECT_EQ(entry->group_data_name, "NPU.npu_grouped_matmul.0.forward.kwargs.group_list.pt");
  }
  EXPECT_FALSE(EntryOf("Functional.linear.0.forward", kGroupList));
  // dequant_swiglu_quant reads group_index, not group_list
  EXPECT_FALSE(EntryOf("NPU.npu_dequant_swiglu_quant.0.forward", kGroupList));
  const auto dequant = EntryOf("NPU.npu_dequant_swiglu_quant.0.forward",
                               R"({"input_kwargs": {"group_index": {"type": "torch.Tensor", "data_name": "g.pt"}}})");
  ASSERT_TRUE(dequant);
  EXPECT_EQ(dequant->group_data_name, "g.pt");
}

TEST(ScratchRowsTest, OnlyATensorKwargSavedAsPtCounts) {
  const char* key = "NPU.npu_grouped_matmul.0.forward";
  EXPECT_FALSE(EntryOf(key, R"({"input_args": [{"type": "torch.Tensor", "data_name": "a.pt"}]})"));
  EXPECT_FALSE(EntryOf(key, R"({"input_kwargs": {"group_list": {"type": "torch.Tensor", "data_name": "g.npy"}}})"));
  EXPECT_FALSE(EntryOf(key, R"({"input_kwargs": {"group_list": {"type": "torch.Tensor", "Max": 3}}})"));
  EXPECT_FALSE(EntryOf(key, R"({"input_kwargs": {"group_list": [{"type": "int", "value": 2}]}})"));
  EXPECT_FALSE(EntryOf(key, R"({"input_kwargs": {"group_list": null}})"));
  EXPECT_FALSE(EntryOf(key, R"({"output": []})"));
  // msprobe's parse_op_data unwraps a {"type", "value"} pair, and loads any string ending in ".pt"
  const auto wrapped = EntryOf(key, R"({"input_kwargs": {"group_list": {"type": "str", "value": "g.pt"}}})");
  ASSERT_TRUE(wrapped);
  EXPECT_EQ(wrapped->group_data_name, "g.pt");
}

template <class T>
std::string WriteGroup(const testing::TempDir& dir, const std::string& name, DType dtype, std::vector<int64_t> shape,
                       const std::vector<T>& values) {
  const Status status =
      WriteNpy(dir.Path(name), dtype, shape, Bytes(reinterpret_cast<const std::byte*>(values.data()), values.size() * sizeof(T)));
  EXPECT_TRUE(status.ok()) << status.ToString();
  return dir.Path(name);
}

TEST(ScratchRowsTest, ValidLengthIsTheSumOfTheGroupTensor) {
  testing::TempDir dir;
  EXPECT_EQ(*GroupValidLength(WriteGroup<int64_t>(dir, "a", DType::kI64, {2}, {2, 3})), 5);
  EXPECT_EQ(*GroupValidLength(WriteGroup<int32_t>(dir, "b", DType::kI32, {2, 2}, {1, 2, 3, 4})), 10);
  EXPECT_EQ(*GroupValidLength(WriteGroup<int8_t>(dir, "c", DType::kI8, {3}, {100, 100, 100})), 300);  // no int8 wrap
  EXPECT_EQ(*GroupValidLength(WriteGroup<uint8_t>(dir, "d", DType::kU8, {2}, {200, 200})), 400);
  EXPECT_EQ(*GroupValidLength(WriteGroup<uint8_t>(dir, "e", DType::kBool, {4}, {1, 0, 1, 1})), 3);
  EXPECT_EQ(*GroupValidLength(WriteGroup<int64_t>(dir, "f", DType::kI64, {0}, {})), 0);
  EXPECT_EQ(*GroupValidLength(WriteGroup<int64_t>(dir, "g", DType::kI64, {}, {7})), 7);
}

TEST(ScratchRowsTest, OtherDtypesNegativeSumsAndBadFilesGiveNoLength) {
  testing::TempDir dir;
  EXPECT_STATUS(GroupValidLength(WriteGroup<float>(dir, "a", DType::kF32, {2}, {2, 3})), Code::kUnsupported, "float32");
  EXPECT_STATUS(GroupValidLength(WriteGroup<int16_t>(dir, "b", DType::kI16, {2}, {1, -3})), Code::kInvalidInput,
                "-2 is negative");
  EXPECT_FALSE(GroupValidLength(WriteGroup<int32_t>(dir, "c", DType::kU32, {1}, {3})).ok());
  EXPECT_FALSE(GroupValidLength(dir.Path("missing.pt")).ok());
}

TEST(ScratchRowsTest, OutputRowsOfTheEntryGetTheLength) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.Path("dump_tensor_data"));
  WriteGroup<int64_t>(dir, "dump_tensor_data/g.pt", DType::kI64, {2}, {1, 3});
  WriteGroup<float>(dir, "dump_tensor_data/bad.pt", DType::kF32, {2}, {1, 3});
  const std::string gmm = "NPU.npu_grouped_matmul.0.forward", other = "NPU.npu_grouped_matmul.1.forward";
  std::vector<ResultRow> rows(5);
  rows[0].api = rows[1].api = rows[2].api = gmm;
  rows[0].target_name = gmm + ".input.0";
  rows[1].target_name = gmm + ".output.0";
  rows[2].target_name = gmm + ".kwargs.output_scale";  // msprobe's test is a substring one
  rows[3].api = rows[4].api = other;
  rows[3].target_name = rows[4].target_name = other + ".output.0";
  MarkScratchRows({{gmm, "g.pt"}, {other, "bad.pt"}}, dir.Path("dump.json"), &rows);
  EXPECT_EQ(rows[0].target_valid_rows, -1);
  EXPECT_EQ(rows[1].target_valid_rows, 4);
  EXPECT_EQ(rows[2].target_valid_rows, 4);
  EXPECT_EQ(rows[3].target_valid_rows, -1);
  EXPECT_EQ(rows[4].target_valid_rows, -1);
}

}  // namespace
}  // namespace msprobe::compare
