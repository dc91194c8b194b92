// How references hold their tensors: a result is computed in the values of an operand the call loaded
// and moved out, never copied (a copy doubled a recompute's memory and cost a pass over every result).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "libops/call_json.h"
#include "msprobe/ops/reference/reference.h"
#include "reference/op_call_internal.h"
#include "test_support.h"

namespace msprobe::ops {
namespace {

TEST(ReferenceMemory, ResultsTakeOverTheValuesTheCallLoaded) {
  const std::string one = R"({"input_args": [)" + T("[4, 8]") + "]}";
  const std::string two = R"({"input_args": [)" + T("[4, 8]") + "," + T("[4, 8]") + "]}";
  const std::string broadcast = R"({"input_args": [)" + T("[8]") + "," + T("[4, 8]") + "]}";
  const std::string layer_norm = R"({"input_args": [)" + T("[4, 8]") + ",[" + I(8) + "]," + T("[8]") + "," + T("[8]") + "]}";
  const std::string rms_norm = R"({"input_args": [)" + T("[4, 8]") + ",[" + I(8) + "]," + T("[8]") + "]}";
  for (const auto& [api, args_json, loaded_block] :
       {std::tuple{"Tensor.__add__.0.forward", two, true}, {"Tensor.__radd__.0.forward", two, true},
        {"Torch.mul.0.forward", two, true}, {"Functional.gelu.0.forward", one, true},
        {"Torch.exp.0.forward", one, true}, {"Functional.layer_norm.0.forward", layer_norm, true},
        {"Functional.rms_norm.0.forward", rms_norm, true}, {"Tensor.__add__.0.forward", broadcast, false}}) {
    SCOPED_TRACE(std::string(api) + " " + args_json);
    auto doc = ParseJsonText(args_json, "t.json");
    ASSERT_TRUE(doc.ok());
    auto args = ParseCallArgs(*doc, api);
    ASSERT_TRUE(args.ok()) << args.status().ToString();
    std::set<const double*> blocks;  // the value blocks the loader handed over
    auto outputs = RunReference(api, *args, [&](const TensorRef& ref) -> Result<Fp64Tensor> {
      Fp64Tensor t = Zeros(ref.shape);
      blocks.insert(t.data.data());
      return t;
    });
    ASSERT_TRUE(outputs.ok()) << outputs.status().ToString();
    ASSERT_EQ(outputs->size(), 1u);
    EXPECT_EQ((*outputs)[0].numel(), 32);
    // A [8] operand broadcast against [4, 8] cannot hold the result; the [4, 8] one is read, not taken.
    EXPECT_EQ(blocks.contains((*outputs)[0].data.data()), loaded_block);
  }
}

TEST(ReferenceMemory, OutputsOfMovesEveryTensorIn) {
  Fp64Tensor y = Zeros({3}), rstd = Zeros({1});
  const double *y_block = y.data.data(), *rstd_block = rstd.data.data();
  const internal::Outputs outputs = internal::OutputsOf(std::move(y), std::move(rstd));
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[0].data.data(), y_block);
  EXPECT_EQ(outputs[1].data.data(), rstd_block);
}

}  // namespace
}  // namespace msprobe::ops
