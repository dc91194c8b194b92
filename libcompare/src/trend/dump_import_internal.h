// The dump half of data2db (docs/trend.md §4-§9): every rank's dump.json of every step, streamed
// entry by entry, into DIR/dump_data.trend.db.
#pragma once

#include <optional>

#include "msprobe/compare/trend/data2db_job.h"
#include "trend/dump_entry_internal.h"

namespace msprobe::compare::internal {

// nullopt when the root holds no step directory with a rank in it (nothing is written); `found_steps`
// then tells whether it held step directories at all.
Result<std::optional<TrendDbSummary>> ImportDumpRoot(const Data2DbOptions& options, const NameMapping& mapping,
                                                      const JobContext& ctx, bool* found_steps);

}  // namespace msprobe::compare::internal
