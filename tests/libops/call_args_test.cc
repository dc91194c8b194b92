// ParseCallArgs over the argument forms of formats.md §1.6, and the forms it refuses.
#include "msprobe/ops/args/call_args.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"

namespace msprobe::ops {
namespace {

Result<CallArgs> Parse(const std::string& json) {
  auto doc = ParseJsonText(json, "t.json");
  if (!doc.ok()) return doc.status();
  return ParseCallArgs(*doc, "Tensor.x.0.forward");
}

TEST(CallArgs, ParsesTheSampleDumpEntries) {
  MSP_REQUIRE_SHARED(path, "msprobe_samples/dist2/npu_t/step0/rank0/dump.json");
  auto doc = ReadJsonFile(path);
  ASSERT_TRUE(doc.ok());
  auto call = ParseCallArgs((*doc)["data"]["Tensor.__mul__.0.forward"], "Tensor.__mul__.0.forward");
  ASSERT_TRUE(call.ok()) << call.status().ToString();
  ASSERT_EQ(call->args.size(), 2u);
  EXPECT_EQ(call->args[0].kind, ArgValue::Kind::kTensor);
  EXPECT_EQ(call->args[0].tensor.dtype, DType::kF32);
  EXPECT_EQ(call->args[0].tensor.shape, (std::vector<int64_t>{3, 8}));
  EXPECT_EQ(call->args[0].tensor.data_name, "Tensor.__mul__.0.forward.input.0.pt");
  EXPECT_EQ(call->args[0].tensor.path, "input_args.0");
  EXPECT_EQ(call->args[1].kind, ArgValue::Kind::kFloat);
  EXPECT_EQ(call->args[1].float_value, 1.03);
  ASSERT_EQ(call->outputs.size(), 1u);
  EXPECT_EQ(call->outputs[0].tensor.data_name, "Tensor.__mul__.0.forward.output.0.pt");
}

TEST(CallArgs, TypedScalarsListsAndNone) {
  auto call = Parse(R"({"input_args": [{"type": "int", "value": -3}, {"type": "bool", "value": true},
      {"type": "float", "value": NaN}, {"type": "float64", "value": 2}, [{"type": "int", "value": 1}, null],
      {"type": "torch.Size", "value": [4, 2]}, {"type": null}, {"type": "str", "value": "tanh"}],
      "input_kwargs": {"dtype": {"type": "torch.dtype", "value": "torch.bfloat16"}}, "output": []})");
  ASSERT_TRUE(call.ok()) << call.status().ToString();
  const auto& a = call->args;
  ASSERT_EQ(a.size(), 8u);
  EXPECT_EQ(a[0].kind, ArgValue::Kind::kInt);
  EXPECT_EQ(a[0].int_value, -3);
  EXPECT_EQ(a[1].kind, ArgValue::Kind::kBool);
  EXPECT_EQ(a[1].int_value, 1);
  EXPECT_TRUE(std::isnan(a[2].float_value));
  EXPECT_EQ(a[3].kind, ArgValue::Kind::kFloat);
  EXPECT_EQ(a[3].recorded_type, "float64");
  EXPECT_EQ(a[3].float_value, 2.0);
  ASSERT_EQ(a[4].kind, ArgValue::Kind::kList);
  EXPECT_TRUE(a[4].items[1].IsNone());
  ASSERT_EQ(a[5].items.size(), 2u);
  EXPECT_EQ(a[5].recorded_type, "torch.Size");
  EXPECT_EQ(a[5].items[0].int_value, 4);
  EXPECT_TRUE(a[6].IsNone());
  EXPECT_EQ(a[7].text, "tanh");
  ASSERT_NE(call->Kwarg("dtype"), nullptr);
  EXPECT_EQ(call->Kwarg("dtype")->kind, ArgValue::Kind::kDType);
  EXPECT_EQ(call->Kwarg("dtype")->text, "torch.bfloat16");
  EXPECT_EQ(call->Kwarg("missing"), nullptr);
}

TEST(CallArgs, RefusesFormsItCannotType) {
  const char* unsupported[] = {
      R"({"input_args": [{}]})",                                                  // unrecorded object
      R"({"input_args": [{"a": {"type": "int", "value": 1}}]})",                  // dict
      R"({"input_args": [{"type": "slice", "value": [1, 2, null]}]})",
      R"({"input_args": [{"type": "torch.device", "value": "npu:0"}]})",
      R"({"input_args": [{"type": "torch.Tensor", "dtype": "torch.qint8", "shape": [1]}]})",
      R"({"input_args": [3]})",                                                   // bare JSON value
      R"({"input": [], "output": []})",                                           // backward entry
  };
  for (const char* json : unsupported) {
    SCOPED_TRACE(json);
    EXPECT_STATUS(Parse(json), Code::kUnsupported, "");
  }
  EXPECT_STATUS(Parse(R"({"input_args": [{"type": "int", "value": 1.5}]})"), Code::kInvalidInput,
                "input_args.0: int value is not an integer");
  EXPECT_STATUS(Parse(R"({"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [-1]}]})"),
                Code::kInvalidInput, "negative");
  EXPECT_STATUS(Parse(R"({"input_args": [], "input_kwargs": {"dim": {"type": "ellipsis", "value": "..."}}})"),
                Code::kUnsupported, "input_kwargs.dim: argument type ellipsis is not supported");
  std::string deep = R"({"input_args": )" + std::string(500, '[') + std::string(500, ']') + "}";
  EXPECT_STATUS(Parse(deep), Code::kInvalidInput, "nested deeper than 400");
}

}  // namespace
}  // namespace msprobe::ops
