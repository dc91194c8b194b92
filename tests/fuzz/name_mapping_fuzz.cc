// Fuzzes the -dm/-cm/-am/-lm yaml readers (yaml-cpp errors must come back as a Status, never throw)
// and the cell-mapping key rule on the names of a parsed mapping.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "msprobe/compare/rows/name_mapping.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)msprobe::compare::ParseDataMapping(text, "fuzz.yaml");
  (void)msprobe::compare::ParseApiMapping(text, "fuzz.yaml");
  auto cells = msprobe::compare::ParseCellMapping(text, "fuzz.yaml");
  if (cells.ok()) {
    for (const auto& [target, golden] : cells->entries) {
      (void)msprobe::compare::CellMappedKey("Cell." + target + ".forward.0.input.0", *cells);
      (void)msprobe::compare::CellMappedKey(golden, *cells);
    }
  }
  return 0;
}
