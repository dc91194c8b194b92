// Argument validation and refused forms of the references, and the API registry.
#include "msprobe/ops/reference/reference.h"

#include <gtest/gtest.h>

#include <map>

#include "libops/call_json.h"
#include "test_support.h"

namespace msprobe::ops {
namespace {

// A call built from tensors held in memory (zeros of the given shapes) and a JSON argument list.
class Call {
 public:
  Result<std::vector<Fp64Tensor>> Run(std::string_view api, const std::string& args_json) {
    auto doc = ParseJsonText(args_json, "t.json");
    if (!doc.ok()) return doc.status();
    auto args = ParseCallArgs(*doc, std::string(api));
    if (!args.ok()) return args.status();
    return RunReference(api, *args, [](const TensorRef& ref) -> Result<Fp64Tensor> { return Zeros(ref.shape); });
  }
};

std::string B(bool v) { return std::string(R"({"type": "bool", "value": )") + (v ? "true" : "false") + "}"; }

TEST(OpValidation, ShapeErrorsAreInvalidInput) {
  Call c;
  EXPECT_STATUS(c.Run("Torch.matmul", R"({"input_args": [)" + T("[2, 3]") + "," + T("[4, 5]") + "]}"), Code::kInvalidInput,
                "cannot be multiplied");
  EXPECT_STATUS(c.Run("Torch.matmul", R"({"input_args": [)" + T("[]") + "," + T("[4]") + "]}"), Code::kInvalidInput,
                "at least 1D");
  EXPECT_STATUS(c.Run("Torch.matmul", R"({"input_args": [)" + T("[2, 3, 4]") + "," + T("[3, 4, 5]") + "]}"),
                Code::kInvalidInput, "do not broadcast");
  EXPECT_STATUS(c.Run("Torch.bmm", R"({"input_args": [)" + T("[2, 3, 4]") + "," + T("[3, 4, 5]") + "]}"),
                Code::kInvalidInput, "batch sizes differ");
  EXPECT_STATUS(c.Run("Torch.mm", R"({"input_args": [)" + T("[3]") + "," + T("[3, 2]") + "]}"), Code::kInvalidInput,
                "expects 2-D");
  EXPECT_STATUS(c.Run("Functional.conv2d", R"({"input_args": [)" + T("[1, 3, 5, 5]") + "," + T("[2, 2, 3, 3]") + "]}"),
                Code::kInvalidInput, "does not fit input");
  EXPECT_STATUS(c.Run("Functional.conv2d", R"({"input_args": [)" + T("[1, 2, 2, 2]") + "," + T("[2, 2, 3, 3]") + "]}"),
                Code::kInvalidInput, "larger than the padded input");
  EXPECT_STATUS(c.Run("Functional.layer_norm", R"({"input_args": [)" + T("[2, 3]") + ", [" + I(4) + "]]}"),
                Code::kInvalidInput, "does not match the trailing dims");
  EXPECT_STATUS(c.Run("Tensor.add_", R"({"input_args": [)" + T("[3]") + "," + T("[2, 3]") + "]}"), Code::kInvalidInput,
                "doesn't match the broadcast shape");
  EXPECT_STATUS(c.Run("Torch.add", R"({"input_args": [)" + T("[2]") + "," + T("[3]") + "]}"), Code::kInvalidInput,
                "must match");
  EXPECT_STATUS(c.Run("Torch.sum", R"({"input_args": [)" + T("[2, 3]") + ", [" + I(1) + "," + I(-1) + "]]}"),
                Code::kInvalidInput, "appears multiple times");
  EXPECT_STATUS(c.Run("Tensor.softmax", R"({"input_args": [)" + T("[2, 3]") + "," + I(2) + "]}"), Code::kInvalidInput,
                "dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_STATUS(c.Run("Tensor.view", R"({"input_args": [)" + T("[2, 3]") + "," + I(4) + "," + I(-1) + "]}"),
                Code::kInvalidInput, "is invalid for input of size 6");
  EXPECT_STATUS(c.Run("Torch.permute", R"({"input_args": [)" + T("[2, 3]") + ", [" + I(0) + "," + I(0) + "]]}"),
                Code::kInvalidInput, "repeated dim");
  EXPECT_STATUS(c.Run("Torch.cat", R"({"input_args": [[)" + T("[2, 3]") + "," + T("[3, 3]") + "]], \"input_kwargs\": {\"dim\": " + I(1) + "}}"),
                Code::kInvalidInput, "sizes of tensors must match");
  EXPECT_STATUS(c.Run("Torch.mean", R"({"input_args": [)" + T("[2]", "torch.int64") + "]}"), Code::kInvalidInput,
                "must be floating point");
  EXPECT_STATUS(c.Run("Functional.embedding", R"({"input_args": [)" + T("[2]") + "," + T("[4, 3]") + "]}"),
                Code::kInvalidInput, "indices must be an integer tensor");
  EXPECT_STATUS(c.Run("Functional.gelu", R"({"input_args": [)" + T("[2]") + R"(, {"type": "str", "value": "erf"}]})"),
                Code::kInvalidInput, "either none or tanh");
  EXPECT_STATUS(c.Run("Functional.linear", R"({"input_args": [)" + T("[2]") + "," + T("[3, 2]") + "], \"input_kwargs\": {\"bais\": null}}"),
                Code::kInvalidInput, "unexpected keyword argument 'bais'");
  EXPECT_STATUS(c.Run("Functional.scaled_dot_product_attention",
                      R"({"input_args": [)" + T("[2, 4]") + "," + T("[3, 4]") + "," + T("[3, 2]") + "," + T("[2, 3]", "torch.bool") +
                          "], \"input_kwargs\": {\"is_causal\": " + B(true) + "}}"),
                Code::kInvalidInput, "should not be set when is_causal=True");
}

TEST(OpValidation, FormsWithoutAReferenceAreUnsupported) {
  Call c;
  EXPECT_STATUS(c.Run("Functional.dropout", R"({"input_args": [)" + T("[2]") + "]}"), Code::kUnsupported, "training=True");
  EXPECT_STATUS(c.Run("Functional.dropout", R"({"input_args": [)" + T("[2]") + R"(, {"type": "float", "value": 0.1}, )" +
                                                B(true) + "]}"),
                Code::kUnsupported, "training=True");
  EXPECT_STATUS(c.Run("Torch.div", R"({"input_args": [)" + T("[2]") + "," + T("[2]") +
                                       R"(], "input_kwargs": {"rounding_mode": {"type": "str", "value": "floor"}}})"),
                Code::kUnsupported, "rounding_mode=floor");
  EXPECT_STATUS(c.Run("Functional.softmax", R"({"input_args": [)" + T("[2]") + "]}"), Code::kUnsupported, "without dim");
  EXPECT_STATUS(c.Run("Functional.embedding", R"({"input_args": [)" + T("[2]", "torch.int64") + "," + T("[4, 3]") +
                                                  R"(], "input_kwargs": {"max_norm": {"type": "float", "value": 1.0}}})"),
                Code::kUnsupported, "max_norm");
  EXPECT_STATUS(c.Run("Functional.scaled_dot_product_attention",
                      R"({"input_args": [)" + T("[2, 4]") + "," + T("[3, 4]") + "," + T("[3, 2]") + R"(, null, {"type": "float", "value": 0.1}]})"),
                Code::kUnsupported, "dropout_p=0.1");
  EXPECT_STATUS(c.Run("Tensor.view", R"({"input_args": [)" + T("[2]") + R"(, {"type": "torch.dtype", "value": "torch.int32"}]})"),
                Code::kUnsupported, "view(dtype)");
  EXPECT_STATUS(c.Run("Torch.add", R"({"input_args": [)" + T("[2]") + "," + T("[2]") + R"(], "input_kwargs": {"out": )" +
                                       T("[2]") + "}}"),
                Code::kUnsupported, "out=");
  EXPECT_STATUS(c.Run("Torch.add", R"({"input_args": [)" + T("[2]", "torch.bool") + "," + T("[2]") + "]}"), Code::kUnsupported,
                "bool tensor");
  EXPECT_STATUS(c.Run("Torch.relu", R"({"input_args": [)" + T("[2]", "torch.complex64") + "]}"), Code::kUnsupported, "complex");
}

TEST(OpValidation, TensorsWithoutDataNameAreNotFound) {
  const InputLoader load = DirectoryLoader(testing::TestData("ops/cases/exp"));
  TensorRef ref;
  ref.path = "input_args.0";
  EXPECT_STATUS(load(ref), Code::kNotFound, "no data_name");
  ref.data_name = "../exp/Torch.exp.0.forward.input.0.pt";
  EXPECT_STATUS(load(ref), Code::kInvalidInput, "");
  ref.data_name = "Torch.exp.0.forward.input.0.pt";
  ref.shape = {9};
  EXPECT_STATUS(load(ref), Code::kInvalidInput, "differs from the recorded [9]");
}

TEST(OpRegistry, NamesAndSupport) {
  EXPECT_EQ(ApiName("Functional.linear.0.forward"), "Functional.linear");
  EXPECT_EQ(ApiName("Tensor.__add__.12.backward"), "Tensor.__add__");
  EXPECT_EQ(ApiName("Torch.matmul"), "Torch.matmul");
  EXPECT_EQ(ApiName("Torch.x.forward"), "Torch.x.forward");
  EXPECT_TRUE(QuerySupport("Tensor.__iadd__.3.forward").supported);
  EXPECT_TRUE(QuerySupport("NPU.npu_rms_norm").supported);
  EXPECT_TRUE(QuerySupport("Tensor.__rtruediv__.0.forward").supported);
  const Support backward = QuerySupport("Functional.linear.0.backward");
  EXPECT_FALSE(backward.supported);
  EXPECT_NE(backward.reason.find("forward only"), std::string::npos);
  EXPECT_NE(QuerySupport("Module.fc.Linear.forward.0").reason.find("modules"), std::string::npos);
  EXPECT_EQ(QuerySupport("Torch.conv3d.0.forward").reason, "no float64 reference for Torch.conv3d");
  const std::vector<std::string> apis = SupportedApis();
  EXPECT_TRUE(std::is_sorted(apis.begin(), apis.end()));
  EXPECT_NE(std::find(apis.begin(), apis.end(), "Tensor.__rsub__"), apis.end());
  EXPECT_STATUS(Call().Run("Torch.conv3d.0.forward", R"({"input_args": []})"), Code::kUnsupported, "no float64 reference");
}

}  // namespace
}  // namespace msprobe::ops
