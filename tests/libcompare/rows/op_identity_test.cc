// What a dumped call is for --align (docs/compare.md §3.8): its stream and its op under any namespace.
#include "rows/op_identity_internal.h"

#include <gtest/gtest.h>

namespace msprobe::compare::internal {
namespace {

std::string Op(std::string_view key, bool mindspore = false) {
  return OpIdentity(SplitKey(key, false).op_no_number, mindspore);
}

TEST(OpIdentityTest, OneOpUnderEveryNamespace) {
  EXPECT_EQ(Op("Functional.softmax.0.forward"), "softmax");
  EXPECT_EQ(Op("Torch.softmax.3.forward"), "softmax");
  EXPECT_EQ(Op("Tensor.softmax.1.backward"), "softmax");
  EXPECT_EQ(Op("Mint.cos.0.forward"), "cos");
  EXPECT_EQ(Op("MintFunctional.linear.0.forward"), "linear");
  EXPECT_EQ(Op("Aten.add.Tensor.0.forward"), "add");
}

TEST(OpIdentityTest, DundersInPlaceAndReflectedFormsAreTheirOp) {
  EXPECT_EQ(Op("Tensor.__add__.0.forward"), "add");
  EXPECT_EQ(Op("Tensor.__radd__.0.forward"), "add");
  EXPECT_EQ(Op("Tensor.__iadd__.0.forward"), "add");
  EXPECT_EQ(Op("Tensor.add_.0.forward"), "add");
  EXPECT_EQ(Op("Tensor.__truediv__.0.forward"), "div");
  // A right shift is its own op, not a reflected "shift"; __getitem__ keeps its name.
  EXPECT_EQ(Op("Tensor.__rshift__.0.forward"), "rshift");
  EXPECT_EQ(Op("Tensor.__getitem__.0.forward"), "getitem");
}

TEST(OpIdentityTest, VendorPrefixesCaseAndAliasesGo) {
  EXPECT_EQ(Op("NPU.npu_rms_norm.0.forward"), "rms_norm");
  EXPECT_EQ(Op("Primitive.norm.RmsNorm.0.forward"), "rms_norm");
  EXPECT_EQ(Op("NPU.npu_fusion_attention.0.forward"), "flash_attention_score");
  EXPECT_EQ(Op("Functional.flash_attention_score.0.backward"), "flash_attention_score");
  EXPECT_EQ(Op("Torch.multiply.0.forward"), "mul");
  EXPECT_EQ(Op("Torch.clip.0.forward"), "clamp");
}

TEST(OpIdentityTest, ModulesAreTheirClass) {
  EXPECT_EQ(Op("Module.layers.0.fc.Linear.forward.0"), "linear");
  EXPECT_EQ(Op("Cell.blocks.0.fc.Dense.forward.0"), "linear");
  EXPECT_EQ(Op("Module.fc.Linear.parameters_grad"), "linear");
  EXPECT_EQ(Op("Module.norm.RMSNorm.forward.0"), "rms_norm");
  EXPECT_EQ(Op("Cell.norm.FusedRMSNorm.backward.0"), "rms_norm");
  EXPECT_EQ(Op("Cell.layers.CellList.forward.0"), "module_list");
}

TEST(OpIdentityTest, MindSporeNamesAreRenamedByTheApiMappingTableFirst) {
  EXPECT_EQ(Op("Functional.equal.0.forward", true), "eq");
  EXPECT_EQ(Op("Tensor.gather_elements.0.forward", true), "gather");
  // Only a MindSpore dump's: PyTorch's Tensor.equal compares whole tensors.
  EXPECT_EQ(Op("Tensor.equal.0.forward", false), "equal");
}

TEST(OpIdentityTest, StreamsSeparateApisModulesAndDirections) {
  const auto stream = [](std::string_view key) { return StreamOf(SplitKey(key, false)); };
  EXPECT_EQ(stream("Functional.relu.0.forward"), CallStream::kApiForward);
  EXPECT_EQ(stream("Functional.relu.0.backward"), CallStream::kApiBackward);
  EXPECT_EQ(stream("Module.fc.Linear.forward.0"), CallStream::kModuleForward);
  EXPECT_EQ(stream("Cell.fc.Dense.backward.0"), CallStream::kModuleBackward);
  EXPECT_EQ(stream("Module.fc.Linear.parameters_grad"), CallStream::kParametersGrad);
  EXPECT_EQ(stream("not_a_call"), CallStream::kNone);
}

TEST(OpIdentityTest, AliasesOnlyRenameListedNames) {
  EXPECT_EQ(OpAlias("divide"), "div");
  EXPECT_EQ(OpAlias("dense"), "linear");
  EXPECT_EQ(OpAlias("softmax"), "softmax");
}

}  // namespace
}  // namespace msprobe::compare::internal
