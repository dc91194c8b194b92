// The trend page's data: a trend database read into one JSON object, read by report/trend.js.
//
//   {"title", "stats": trend_data's statistic columns,
//    "metrics": [{"id", "name", "stats": indices into "stats"}]   those with rows, by id
//    "targets": {"id", "name", "call", "vpp"}: per target with rows, by id ("call": the micro_step column)
//    "tags": {"name", "category", "metric": index into "metrics", "targets": [[target index, ...], ...]}
//    "rows": {"rank", "step", "target": index, "metric": index, "values": [[per row] per stat]}}
// Numbers are written in full (shortest round trip); a NULL statistic is null. Every string is escaped
// for JSON and HTML (report/json_text_internal.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/dump/util/status.h"
#include "trend/sqlite_db_internal.h"

namespace msprobe::compare::internal {

struct TrendRowFilter {
  std::optional<int64_t> first_step, last_step;
  std::vector<int64_t> ranks;  // empty: all
  uint64_t max_rows = 0;       // 0: no limit
};

struct TrendPageData {
  std::string json;
  uint64_t rows = 0;
};

// Errors name the database: not a trend database (no trend_data, monitoring_targets or
// monitoring_metrics table), more rows than the filter's limit.
Result<TrendPageData> ReadTrendPageData(SqliteDb& db, const std::string& title, const TrendRowFilter& filter);

}  // namespace msprobe::compare::internal
