// libFuzzer target: the mapping.csv reader on arbitrary bytes; every name it maps is a plain file name.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "msprobe/dump/kernel/mapping_csv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  msprobe::Result<msprobe::KernelDumpMapping> mapping = msprobe::ParseMappingCsv(text, "mapping.csv");
  if (!mapping.ok()) return 0;
  for (const auto& [new_name, original] : *mapping) {
    if (new_name.empty() || original.empty() || new_name.find('/') != std::string::npos ||
        original.find('/') != std::string::npos) {
      std::abort();
    }
  }
  return 0;
}
