// The trend page (docs/trend.md §13): one self-contained HTML page of a trend database, ours or
// msprobe's, dump or monitor: a heat map of one statistic over two of step × rank × module with the
// third fixed, the line of a clicked cell along the third, filters by tag, module name, rank and
// step. Its chart library is the compare report's (Apache ECharts, inlined); it requests nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/dump/util/job_context.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct TrendPageOptions {
  std::string input;   // a *.trend.db, or a directory: each *.trend.db in it gets a page
  std::string output;  // the page (one database only); empty: "<db without .db>.html" beside each
  // Only these rows go into the page (a database of every step of a long run is too large to open):
  std::optional<int64_t> first_step, last_step;
  std::vector<int64_t> ranks;  // empty: all
  uint64_t max_rows = 2'000'000;  // more rows than this (after the filters) is an error naming them
};

struct TrendPageReport {
  std::vector<std::string> pages;
  uint64_t rows = 0;  // rows of trend_data shown, over the pages
};

// Errors: NotFound (no database), InvalidInput (not a trend database, too many rows), IOError.
Result<TrendPageReport> WriteTrendPages(const TrendPageOptions& options, const JobContext& ctx);

}  // namespace msprobe::compare
