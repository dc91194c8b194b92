// A dump.json entry as data2db reads it: the metric and target of its key (with --mapping), and the
// tensors it keeps with their suffixes.
#include "trend/dump_entry_internal.h"

#include <gtest/gtest.h>

#include <vector>

namespace msprobe::compare::internal {
namespace {

JsonDocument Doc(const char* json) {
  Result<JsonDocument> doc = ParseJsonText(json, "dump.json");
  EXPECT_TRUE(doc.ok()) << json;
  return std::move(doc).value();
}

std::string Target(const char* key, const char* entry = "{}", const NameMapping& mapping = {}) {
  const JsonDocument e = Doc(entry);
  const std::optional<EntryTarget> t = TargetOfKey(key, e, mapping);
  if (!t) return "none";
  return std::to_string(t->metric) + " " + t->prefix + " " + std::to_string(t->call);
}

TEST(TargetOfKey, MetricPrefixAndCall) {
  EXPECT_EQ(Target("Module.conv1.Conv2d.forward.0"), "1 Module.conv1.Conv2d 0");
  EXPECT_EQ(Target("Tensor.add.1.forward"), "1 Tensor.add 1");
  EXPECT_EQ(Target("Tensor.add.1.forward", R"({"is_recompute": true})"), "3 Tensor.add 1");
  EXPECT_EQ(Target("Tensor.add.1.forward", R"({"is_recompute": 0})"), "1 Tensor.add 1");
  EXPECT_EQ(Target("Module.layer.Linear.backward.2"), "2 Module.layer.Linear 2");
  EXPECT_EQ(Target("Functional.relu.4.backward"), "2 Functional.relu 4");
  EXPECT_EQ(Target("Module.conv1.Conv2d.parameters_grad"), "4 Module.conv1.Conv2d 0");
  EXPECT_EQ(Target("Module.conv1.Conv2d.parameters_grad.3"), "4 Module.conv1.Conv2d 0");
  EXPECT_EQ(Target("Module.forward_x.Linear.forward.0"), "1 Module_x.Linear 0");  // msprobe's plain replace
  EXPECT_EQ(Target("Tensor.weird"), "none");
  EXPECT_EQ(Target("NoDotsKey"), "none");
}

TEST(TargetOfKey, MappingFirstInItsOrder) {
  const NameMapping mapping = {{".decoder.layers.", ".layers."}, {"ColumnParallelLinear", "CPL"}};
  EXPECT_EQ(Target("Module.m.decoder.layers.0.qkv.ColumnParallelLinear.forward.1", "{}", mapping),
            "1 Module.m.layers.0.qkv.CPL 1");
}

std::vector<std::string> Kept(int metric, const char* entry) {
  const JsonDocument e = Doc(entry);
  std::vector<std::string> out;
  ForEachKeptTensor(metric, e, [&](std::string_view suffix, const JsonValue&) { out.emplace_back(suffix); });
  return out;
}

TEST(ForEachKeptTensor, TypesDtypesAndPositions) {
  const char* f32 = R"({"type": "torch.Tensor", "dtype": "torch.float32"})";
  const std::string forward = std::string(R"({"input_args": [)") + f32 +
      R"(, null, {"type": "torch.Tensor", "dtype": "torch.float64"}, {"type": "int", "value": 3}, [)" + f32 + "], " +
      R"({"type": "mindspore.Tensor", "dtype": "BFloat16"}, {"type": "numpy.ndarray", "dtype": "torch.float32"}],
         "input_kwargs": {"x": )" + f32 + R"(}, "output": [)" + f32 + R"(],
         "parameters": {"weight": [)" + f32 + R"(], "bias": )" + f32 + R"(, "empty": []}})";
  EXPECT_EQ(Kept(1, forward.c_str()),
            (std::vector<std::string>{".input.0", ".input.5", ".output.0", ".parameters.weight"}));
  EXPECT_EQ(Kept(3, forward.c_str()).size(), 4u);
  const std::string backward = std::string(R"({"input": [)") + f32 + R"(], "output": [null, )" + f32 + "]}";
  EXPECT_EQ(Kept(2, backward.c_str()), (std::vector<std::string>{".input.0", ".output.1"}));
  const std::string grads = std::string(R"({"weight": [)") + f32 + R"(], "bias": [{"type": "torch.Tensor",
      "dtype": "torch.float64"}], "x": )" + f32 + "}";
  EXPECT_EQ(Kept(4, grads.c_str()), (std::vector<std::string>{".weight"}));
  EXPECT_TRUE(Kept(1, R"({"input_args": {"a": 1}, "output": "text"})").empty());
}

}  // namespace
}  // namespace msprobe::compare::internal
