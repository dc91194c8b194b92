// Fuzzes the -lm yaml reader (yaml-cpp errors must come back as a Status, never throw) and the pairing
// of two module trees under the rules it read: names built from the rules' own components.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "msprobe/compare/rows/layer_mapping.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto rules = msprobe::compare::ParseLayerMapping(text, "fuzz.yaml");
  if (!rules.ok()) return 0;
  msprobe::compare::LayerDumpInfo target, golden;
  target.framework = "mindspore";
  golden.framework = "pytorch";
  for (const auto& [cls, by_prefix] : rules->by_class) {
    for (const auto& [prefix, list] : by_prefix) {
      for (const auto& rule : list) {
        const std::string cell = "Cell." + rule.origin + "." + cls + ".forward.0";
        target.keys.push_back(cell);
        target.keys.push_back("Mint." + rule.origin + ".0.backward");
        target.parent["Mint." + rule.origin + ".0.backward"] = cell;
        golden.keys.push_back("Module." + rule.target + ".ParallelTransformer.forward.0");
        golden.keys.push_back("Module." + rule.target + ".layers.7x.L.forward.0");
      }
    }
  }
  (void)msprobe::compare::PairLayerEntries(target, golden, *rules);
  return 0;
}
