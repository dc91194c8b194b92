// What `msprobe-dump consistency` writes besides its table (docs/consistency.md §5): summary.json, for
// a CI to read, and the HTML page of the findings (on the report's page machinery, report/).
#pragma once

#include <string>

#include "msprobe/compare/consistency/consistency_job.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

// summary.json (indent 2): tool, version, input, mode, the settings, counts, checks,
// first_inconsistency ({"step", "rank", "api", "name", "reason"} or null), gate and outputs.
Status WriteConsistencySummary(const std::string& path, const ConsistencyOptions& options,
                               const ConsistencyReport& report);

// The page: counts, the checks, findings per rank (a bar chart) and the findings table with filters
// (report/consistency.js). At most `max_rows` findings go into it; the page says how many were left out.
Status WriteConsistencyPage(const std::string& path, const ConsistencyOptions& options, const ConsistencyReport& report,
                            size_t max_rows = 200'000);

}  // namespace msprobe::compare::internal
