// The tags of targets: dump names (default, layer, module, function, index) as msprobe's data2db
// makes them, in the order of their parts; monitor names (module, layer).
#include "trend/trend_tags_internal.h"

#include <gtest/gtest.h>

namespace msprobe::compare::internal {
namespace {

std::string Tags(const std::vector<TrendTag>& tags) {
  std::string out;
  for (const TrendTag& t : tags) out += std::string(t.category) + ":" + t.name + " ";
  return out;
}

TEST(DumpTargetTags, Modules) {
  EXPECT_EQ(Tags(DumpTargetTags("Module.layer1.0.conv1.Conv2d.input.0")),
            "default:Module layer:layer1.0 module:conv1.Conv2d index:input.0 ");
  EXPECT_EQ(Tags(DumpTargetTags("Module.layer1.0.downsample.0.Conv2d.output.0")),
            "default:Module layer:layer1.0 layer:downsample.0 module:Conv2d index:output.0 ");
  EXPECT_EQ(Tags(DumpTargetTags("Module.module.decoder.layers.0.self_attention.linear_qkv.ColumnParallelLinear.input.0")),
            "default:Module module:module.decoder layer:layers.0 module:self_attention.linear_qkv.ColumnParallelLinear "
            "index:input.0 ");
  EXPECT_EQ(Tags(DumpTargetTags("Module.conv1.Conv2d.weight")), "default:Module module:conv1 index:Conv2d.weight ");
  EXPECT_EQ(Tags(DumpTargetTags("Cell.net.0.1.dense.Dense.output.0")),
            "default:Cell layer:net.0 module:dense.Dense index:output.0 ");  // a number after a number: passed over
  EXPECT_EQ(Tags(DumpTargetTags("Module.a..3.x.input.0")), "default:Module module:a layer:.3 module:x index:input.0 ");
}

TEST(DumpTargetTags, FunctionsAndNone) {
  EXPECT_EQ(Tags(DumpTargetTags("Functional.conv2d.output.0")), "function:Functional.conv2d index:output.0 ");
  EXPECT_EQ(Tags(DumpTargetTags("Distributed.all_reduce.output.0")), "function:Distributed.all_reduce index:output.0 ");
  EXPECT_EQ(Tags(DumpTargetTags("Module.5.input.0")), "default:Module index:input.0 ");
  EXPECT_EQ(Tags(DumpTargetTags("Module.Cell.input.0")), "");  // nothing but Module and Cell: no tags at all
  EXPECT_EQ(Tags(DumpTargetTags("a.b")), "");
}

TEST(MonitorTargetTags, ModulesAndLayers) {
  EXPECT_EQ(Tags(MonitorTargetTags("module.layers.0.mlp.input")),
            "module:module module:layers layer:layers.0 module:mlp module:input ");
  EXPECT_EQ(Tags(MonitorTargetTags("0.1.x")), "module:x ");
}

}  // namespace
}  // namespace msprobe::compare::internal
