// Fuzzes the --tensor-postprocess (right_matmul) yaml reader: yaml-cpp errors come back as a Status.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "msprobe/compare/rows/right_matmul_map.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> warnings;
  (void)msprobe::compare::ParseRightMatmulYaml(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.yaml",
                                               &warnings);
  return 0;
}
