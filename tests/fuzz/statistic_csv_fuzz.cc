// libFuzzer target: the statistic.csv reader on arbitrary bytes; every row it accepts is as wide as
// the header.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "msprobe/dump/kernel/statistic_csv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  msprobe::Result<msprobe::StatisticCsv> csv = msprobe::ParseStatisticCsv(text, "statistic.csv");
  if (!csv.ok()) return 0;
  for (const auto& row : csv->rows) {
    if (row.size() != csv->header.size()) std::abort();
  }
  (void)msprobe::StatisticRecords(*csv);
  return 0;
}
