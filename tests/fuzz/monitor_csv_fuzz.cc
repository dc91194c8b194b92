// libFuzzer target: data2db's reader of the training monitor's csv files (and its directory and file
// name rules) on arbitrary bytes. Every row it hands out names a slice of the input, and every
// statistic is a trend value: within ±(1e9 + 1).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>

#include "trend/monitor_csv_internal.h"
#include "trend/monitor_layout_internal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace msprobe::compare::internal;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)ParseMonitorDirName(text);
  (void)ValidMonitorTime(text);
  (void)MonitorMetricOfFile(text);
  uint64_t visited = 0;
  const auto summary = ReadMonitorCsv(std::as_bytes(std::span(data, size)), "actv_0-0.csv",
                                      [&](const MonitorCsvRow& row) {
    ++visited;
    if (row.name != "nan" && row.name.size() > size) std::abort();
    for (const auto& stat : row.stats) {
      if (stat && !(std::fabs(*stat) <= 1e9 + 1)) std::abort();
    }
    return msprobe::Status::Ok();
  });
  if (summary.ok() && summary->rows != visited) std::abort();
  return 0;
}
