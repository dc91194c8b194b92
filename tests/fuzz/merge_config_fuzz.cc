// Fuzzes the msprobe-merge config reader: yaml-cpp's errors must come back as a Status, and an
// accepted config must hold what the merge relies on.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "msprobe/compare/merge/merge_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto config = msprobe::compare::ParseMergeConfig(text, "merge.yaml");
  if (config.ok() && (config->apis.empty() || !(config->highlight_factor > 1))) std::abort();
  return 0;
}
