// construct.json's micro steps as data2db counts them: roots, backward and parameter-gradient keys
// through their forward twins, call indices renumbered per micro step, Megatron's form, and the
// construct.json files it cannot read.
#include "trend/micro_steps_internal.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace msprobe::compare::internal {
namespace {

MicroSteps Of(const char* json) {
  Result<JsonDocument> doc = ParseJsonText(json, "construct.json");
  EXPECT_TRUE(doc.ok());
  Result<MicroSteps> steps = MicroStepsOf(*doc, "construct.json");
  EXPECT_TRUE(steps.ok()) << steps.status().ToString();
  return steps.ok() ? *steps : MicroSteps{};
}

TEST(MicroSteps, EveryRootOpensOne) {
  const MicroSteps s = Of(R"({
    "Module.model.Net.forward.0": null,
    "Module.model.fc.Linear.forward.0": "Module.model.Net.forward.0",
    "Tensor.add.10.forward": "Module.model.Net.forward.0",
    "Tensor.add.3.forward": "Module.model.Net.forward.0",
    "Tensor.mean.0.forward": null,
    "Tensor.mean.0.backward": null,
    "Tensor.add.10.backward": null,
    "Module.model.Net.forward.1": null,
    "Module.model.fc.Linear.forward.1": "Module.model.Net.forward.1",
    "Module.model.fc.Linear.backward.1": null,
    "Module.model.fc.Linear.parameters_grad.1": "not looked at: the forward twin's parent counts",
    "optimizer": null,
    "Torch.clone.5.forward": "optimizer"})");
  EXPECT_EQ(s.count, 3);
  EXPECT_EQ(s.keys.size(), 11u);  // not the top-level Tensor.mean and its backward twin
  EXPECT_FALSE(s.keys.contains("Tensor.mean.0.forward"));
  EXPECT_FALSE(s.keys.contains("Tensor.mean.0.backward"));
  EXPECT_EQ(s.keys.at("Module.model.fc.Linear.forward.1").micro, 1);
  EXPECT_EQ(s.keys.at("Module.model.fc.Linear.forward.1").renamed, "Module.model.fc.Linear.forward.0");
  // Call indices restart in each micro step, in the order of the old ones.
  EXPECT_EQ(s.keys.at("Tensor.add.3.forward").renamed, "Tensor.add.0.forward");
  EXPECT_EQ(s.keys.at("Tensor.add.10.forward").renamed, "Tensor.add.1.forward");
  // A backward key goes through its forward twin, as does a parameter gradient.
  EXPECT_EQ(s.keys.at("Tensor.add.10.backward").micro, 0);
  EXPECT_EQ(s.keys.at("Tensor.add.10.backward").renamed, "Tensor.add.0.backward");
  EXPECT_EQ(s.keys.at("Module.model.fc.Linear.backward.1").micro, 1);
  EXPECT_EQ(s.keys.at("Module.model.fc.Linear.parameters_grad.1").micro, 1);
  EXPECT_EQ(s.keys.at("Torch.clone.5.forward").micro, 2);
  EXPECT_EQ(s.keys.at("Torch.clone.5.forward").renamed, "Torch.clone.0.forward");
}

TEST(MicroSteps, OddNames) {
  const MicroSteps s = Of(R"({"Cell.net.Net.forward.0": null, "7": "Cell.net.Net.forward.0",
                              "x.7": "Cell.net.Net.forward.0", "x": "Cell.net.Net.forward.0",
                              "Module.a.parameters_grad": "Cell.net.Net.forward.0"})");
  EXPECT_EQ(s.keys.at("7").renamed, ".0");  // as msprobe renames a bare number
  // "x" (no index, counts as 0) and "x.7" share a name pattern: numbered together.
  EXPECT_EQ(s.keys.at("x").renamed, "x");
  EXPECT_EQ(s.keys.at("x.7").renamed, "x.1");
  EXPECT_FALSE(s.keys.contains("Module.a.parameters_grad"));  // its twin Module.a.forward is not listed
}

TEST(MicroSteps, NoRootNoneKept) {
  const MicroSteps s = Of(R"({"Tensor.add.0.forward": null})");
  EXPECT_TRUE(s.keys.empty());
  EXPECT_EQ(s.count, 1);
  EXPECT_TRUE(Of("{}").keys.empty());
}

TEST(MicroSteps, MegatronForm) {
  const MicroSteps s = Of(R"({"megatron_micro_step_number": 2,
    "Module.m.GPT.forward.0": [null, 0], "Module.m.fc.Linear.forward.0": ["Module.m.GPT.forward.0", 0],
    "Module.m.GPT.forward.1": [null, 1], "Module.m.fc.Linear.forward.1": ["Module.m.GPT.forward.1", 1]})");
  EXPECT_EQ(s.count, 2);
  EXPECT_EQ(s.keys.at("Module.m.fc.Linear.forward.1").micro, 1);
  EXPECT_EQ(s.keys.at("Module.m.fc.Linear.forward.1").renamed, "Module.m.fc.Linear.forward.0");
}

TEST(MicroSteps, RepeatedKeyKeepsItsFirstPlaceAndLastValue) {
  const MicroSteps s = Of(R"({"Module.a.forward.0": null, "Module.b.forward.0": null, "Module.a.forward.0": "x"})");
  EXPECT_EQ(s.count, 1);  // only Module.b is a root
  EXPECT_EQ(s.keys.at("Module.b.forward.0").micro, 0);
  EXPECT_FALSE(s.keys.contains("Module.a.forward.0"));
}

TEST(MicroSteps, Refused) {
  auto status = [](const char* json) {
    Result<JsonDocument> doc = ParseJsonText(json, "construct.json");
    return MicroStepsOf(*doc, "construct.json").status();
  };
  EXPECT_STATUS(status("[]"), Code::kInvalidInput, "object");
  EXPECT_STATUS(status(R"({"a": 3})"), Code::kInvalidInput, "'a': its parent must be a name or null");
  EXPECT_STATUS(status(R"({"a": ["b"]})"), Code::kInvalidInput, "'a': its parent");
  EXPECT_STATUS(status(R"({"megatron_micro_step_number": 1, "a": [null]})"), Code::kInvalidInput, "Megatron");
  EXPECT_STATUS(status(R"({"Module.r.forward.0": null, "a": "b", "b": "a"})"), Code::kInvalidInput, "cycle");
  EXPECT_STATUS(ReadMicroSteps("/nonexistent/construct.json"), Code::kNotFound, "");
}

}  // namespace
}  // namespace msprobe::compare::internal
