// Fuzzes dump.json/debug.json flattening (docs/compare.md §2): any JSON document, with and without
// being read as a debug.json, and the document reused as its own stack.json; MoE entries go through
// ScratchEntryOf (corpus: moe_scratch.json).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "msprobe/compare/rows/flatten.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto doc = msprobe::ParseJsonText(text, "dump.json");
  if (!doc.ok()) return 0;
  (void)msprobe::compare::FlattenDocument(*doc, nullptr, "dump.json");
  (void)msprobe::compare::FlattenDocument(*doc, nullptr, "debug.json");
  (void)msprobe::compare::FlattenDocument(*doc, &*doc, "dump.json");
  return 0;
}
