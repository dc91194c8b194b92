// libFuzzer target: the capture manifest summary on arbitrary bytes; what it counts adds up.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "msprobe/dump/kernel/capture_manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const msprobe::CaptureSummary s = msprobe::SummarizeCaptureManifest(text);
  if (s.files > s.ops || s.stats_ops > s.ops) std::abort();
  return 0;
}
