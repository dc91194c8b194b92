// One csv file of msprobe's training monitor (TrainerMon; docs/trend.md §12), read as data2db reads
// it through pandas: a header "vpp_stage,name,step[,micro_step],<statistics>" and a row per module
// and step. Each row's statistics are those data2db knows (kMonitorStats), as trend values.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/util/status.h"
#include "trend/trend_schema_internal.h"

namespace msprobe::compare::internal {

struct MonitorCsvRow {
  std::string_view name;  // an empty cell reads "nan", as str() of pandas' missing value
  int64_t vpp_stage = 0, step = 0, micro_step = 0;  // step and micro_step 0 without their column
  std::array<std::optional<double>, kMonitorStats.size()> stats;  // none where the file has no column
};

struct MonitorCsvSummary {
  uint32_t stat_columns = 0;  // bit i: the file has the column kMonitorStats[i]
  uint64_t rows = 0;          // rows visited
  uint64_t skipped = 0;       // rows without a readable name, vpp_stage, step or micro_step
};

using MonitorRowVisitor = std::function<Status(const MonitorCsvRow& row)>;

// Calls `visit` for each row in file order. Errors name `source` and the line: malformed csv, a
// row longer than the header; and whatever `visit` returns.
Result<MonitorCsvSummary> ReadMonitorCsv(Bytes text, const std::string& source, const MonitorRowVisitor& visit);

}  // namespace msprobe::compare::internal
