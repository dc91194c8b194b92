// The monitor half of data2db (docs/trend.md §12): the csv files of msprobe's training monitor into
// DIR/monitor_data.trend.db. Two passes over the files, as msprobe makes them: the first finds the
// targets, statistics and steps, which the tables are made from; the second writes the rows.
#pragma once

#include <optional>

#include "msprobe/compare/trend/data2db_job.h"
#include "trend/dump_entry_internal.h"

namespace msprobe::compare::internal {

// nullopt when `options.data_dir` holds no monitor rank directory with csv files (nothing is written).
Result<std::optional<TrendDbSummary>> ImportMonitorRoot(const Data2DbOptions& options, const NameMapping& mapping,
                                                         const JobContext& ctx);

}  // namespace msprobe::compare::internal
