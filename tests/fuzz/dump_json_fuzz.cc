// Fuzzes the dump.json/debug.json reader: JSON parsing (with NaN/Infinity) and tensor collection,
// streamed from the bytes and over their parsed document.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "msprobe/dump/framework/dump_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)msprobe::ReadDumpJsonText(text, "fuzz.json");
  auto doc = msprobe::ParseJsonText(text, "fuzz.json");
  if (doc.ok()) (void)msprobe::ParseDumpJson(*doc, "fuzz.json");
  return 0;
}
