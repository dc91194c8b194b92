// Fuzzes the op argument parser: a dump.json entry value parsed into typed call arguments.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "msprobe/ops/args/call_args.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto doc = msprobe::ParseJsonText(text, "fuzz.json");
  if (doc.ok()) (void)msprobe::ops::ParseCallArgs(*doc, "fuzz.json");
  return 0;
}
