// Fuzzes overflow_check's reading of a dump.json (docs/compare.md §11): any text, as rank 0 and 1.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "msprobe/compare/first_diff/overflow_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)msprobe::compare::CountOverflowAnomalies(text, 0, "dump.json");
  (void)msprobe::compare::CountOverflowAnomalies(text, 1, "dump.json");
  return 0;
}
