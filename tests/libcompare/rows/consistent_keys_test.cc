// --consistent_check's parse rules and keys (docs/compare.md §3.9): module names of the FSDP and
// Megatron training dumps and of the vLLM rollout, as msprobe renames and numbers them.
#include "msprobe/compare/rows/consistent_keys.h"

#include <gtest/gtest.h>

namespace msprobe::compare {
namespace {

OpRow Row(const std::string& key, const std::string& suffix, int forward_order = 0) {
  OpRow row;
  row.api = key;
  row.name = key + suffix;
  row.forward_call_order = forward_order;
  return row;
}

ConsistentKey KeyOf(const OpRow& row, ConsistentBackend backend, bool train) {
  return ConsistentKeys({row}, backend, train).at(0);
}

TEST(ConsistentKeysTest, ParseStopsAtTheModelBackwardUntilTheNextEmbedding) {
  VerlParseFilter fsdp(ConsistentBackend::kFsdp);
  EXPECT_TRUE(fsdp("Module._fsdp_wrapped_module.model.Qwen3Model.forward.0"));
  EXPECT_FALSE(fsdp("Module._fsdp_wrapped_module.model.Qwen3Model.backward.0"));
  EXPECT_FALSE(fsdp("Module._fsdp_wrapped_module.model.norm.Qwen3RMSNorm.backward.0"));
  EXPECT_FALSE(fsdp("Module.model.layers.0.mlp.Linear.forward.3"));  // recomputed during backward
  EXPECT_TRUE(fsdp("Module._fsdp_wrapped_module.model.embed_tokens.Embedding.forward.1"));
  EXPECT_TRUE(fsdp("Module.model.norm.RMSNorm.backward.0"));  // not the model's own backward
  EXPECT_FALSE(fsdp("a.b"));  // fewer than three parts stops reading
  EXPECT_FALSE(fsdp("Module.model.norm.RMSNorm.forward.0"));
  VerlParseFilter megatron(ConsistentBackend::kMegatron);
  EXPECT_FALSE(megatron("Module.module.module.GPTModel.backward.0"));
  EXPECT_FALSE(megatron("Module.module.module.decoder.Linear.forward.0"));
  // msprobe's test is `module in "VocabParallelEmbedding"`: a part of the name begins reading too
  EXPECT_TRUE(megatron("Module.x.Embedding.forward.0"));
  EXPECT_FALSE(megatron("Module.module.module.GPTModel.backward.1"));
  EXPECT_TRUE(megatron("Module.module.module.embedding.word_embeddings.VocabParallelEmbedding.forward.0"));
}

TEST(ConsistentKeysTest, FsdpModulesMapToTheRollouts) {
  const auto train = [](const std::string& key, const std::string& suffix = ".output.0", int order = 0) {
    return KeyOf(Row(key, suffix, order), ConsistentBackend::kFsdp, true);
  };
  const ConsistentKey q = train("Module._fsdp_wrapped_module.model.layers.3._fsdp_wrapped_module.self_attn.q_proj.Linear.forward.7", ".output.0", 2);
  EXPECT_EQ(q, (ConsistentKey{"forward.2", ".output.0", {"3"}, "qkv_proj"}));
  EXPECT_EQ(train("Module._fsdp_wrapped_module.model.norm.Qwen3RMSNorm.forward.0").module_mapping, "norm");
  EXPECT_EQ(train("Module._fsdp_wrapped_module.model.embed_tokens.Embedding.forward.0").module_mapping, "embed_tokens");
  EXPECT_EQ(train("Module._fsdp_wrapped_module.model.layers.0._fsdp_wrapped_module.Qwen3DecoderLayer.forward.0").module_mapping, "");
  // backward calls keep their number
  EXPECT_EQ(train("Module.model.norm.RMSNorm.backward.4", ".input.0", 9).call_direction, "backward.4");
  const ConsistentKey rollout = KeyOf(Row("Module.model.layers.3.self_attn.qkv_proj.QKVParallelLinear.forward.7", ".output.0"),
                                      ConsistentBackend::kFsdp, false);
  EXPECT_EQ(rollout, (ConsistentKey{"forward.7", ".output.0", {"3"}, "qkv_proj"}));
  EXPECT_EQ(KeyOf(Row("Module.model.norm.RMSNorm.forward.0", ".input.0"), ConsistentBackend::kFsdp, false).module_mapping, "norm");
}

TEST(ConsistentKeysTest, MegatronModulesMapAfterTheirFirstPart) {
  const auto train = [](const std::string& key) {
    return KeyOf(Row(key, ".input.0"), ConsistentBackend::kMegatron, true).module_mapping;
  };
  EXPECT_EQ(train("Module.module.module.decoder.layers.0.self_attention.linear_qkv.ColumnParallelLinear.forward.0"), "qkv_proj");
  EXPECT_EQ(train("Module.module.module.decoder.layers.0.mlp.linear_fc1.ColumnParallelLinear.forward.0"), "gate_up_proj");
  EXPECT_EQ(train("Module.module.module.embedding.word_embeddings.VocabParallelEmbedding.forward.0"), "embed_tokens");
  EXPECT_EQ(train("Module.module.module.decoder.final_layernorm.RMSNorm.forward.0"), "final_layernorm");
  EXPECT_EQ(train("Module.module.module.decoder.layers.0.input_layernorm.RMSNorm.forward.0"), "input_layernorm");
  const auto rollout = [](const std::string& key) {
    return KeyOf(Row(key, ".input.0"), ConsistentBackend::kMegatron, false).module_mapping;
  };
  EXPECT_EQ(rollout("Module.model.layers.0.shared_expert.gate_up_proj.MergedColumnParallelLinear.forward.0"), "gate_up_proj");
  EXPECT_EQ(rollout("Module.model.embed_tokens.VocabParallelEmbedding.forward.0"), "embed_tokens");
  EXPECT_EQ(KeyOf(Row("Module.model.layers.12.mlp.Qwen3MLP.forward.0", ".input.0"), ConsistentBackend::kMegatron, false).layer,
            LayerNumber{"12"});
}

// pandas reads the layer as a number: 9 sorts before 10, 007 is 7, and no name has a layer too long to read.
TEST(ConsistentKeysTest, LayersCompareAsNumbersOfAnyLength) {
  const auto layer = [](const std::string& key) {
    return KeyOf(Row(key, ".input.0"), ConsistentBackend::kMegatron, false).layer;
  };
  EXPECT_LT(layer("Module.model.layers.9.mlp.MLP.forward.0"), layer("Module.model.layers.10.mlp.MLP.forward.0"));
  EXPECT_EQ(layer("Module.model.layers.007.mlp.MLP.forward.0"), LayerNumber{"7"});
  EXPECT_EQ(layer("Module.model.layers.000.mlp.MLP.forward.0"), LayerNumber{"0"});
  EXPECT_LT(layer("Module.model.norm.RMSNorm.forward.0"), layer("Module.model.layers.0.mlp.MLP.forward.0"));
  const std::string huge = "123456789012345678901234567890";
  EXPECT_EQ(layer("Module.model.layers." + huge + ".mlp.MLP.forward.0"), LayerNumber{huge});
  EXPECT_LT(layer("Module.model.layers.99999999999999999999.mlp.MLP.forward.0"), LayerNumber{huge});
}

TEST(ConsistentKeysTest, ApiKeysRenumberTheirFirstPart) {
  EXPECT_EQ(KeyOf(Row("Functional.linear.5.forward", ".output.0", 1), ConsistentBackend::kFsdp, true).call_direction,
            "1.forward");
  EXPECT_EQ(KeyOf(Row("Functional.linear.5.forward", ".output.0"), ConsistentBackend::kFsdp, false).call_direction,
            "5.forward");
}

}  // namespace
}  // namespace msprobe::compare
