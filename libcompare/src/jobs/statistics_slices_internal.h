// A statistics pair shared by rows among processes (docs/distributed.md §3). Its cost is parsing two
// dump.json files, so each process parses only its part of each: the owner outlines both dumps
// (where each entry lies, OutlineDumpJson), gives each process a contiguous range of target entries
// with the golden entries their rows can match, and writes the slices' finished rows in order
// (jobs/statistics_slice_compare).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "jobs/compare_inputs_internal.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/rows/flatten.h"
#include "msprobe/dump/framework/dump_json.h"

namespace msprobe::compare::internal {

// One process's range of the target's entries and the golden entries they can match (the first slice's
// also those no target entry matches, to count them), located by the owner's outline of both dumps,
// with the headers they are read with and the mode they are compared in.
struct EntrySlice {
  std::vector<JsonMemberSpan> entries;
  std::vector<CallOrder> orders;  // one per entry
};
struct StatisticsSlice {
  DumpJsonHeader target_header, golden_header;
  CompareMode mode = CompareMode::kSummary;
  // The plan assumed no md5 summaries on a statistics side (its first entries had none): a slice that
  // reads one makes the owner compare the pair whole.
  bool md5_unseen = false;
  EntrySlice target, golden;
};

// The pair's `slices` slices, or nullopt when the outline cannot settle that they stand for the whole
// compare, which one process then does: a file that does not outline, a header member after "data"
// that changes how entries read, md5 summaries not told by the first entries, a check the headers
// fail, a key twice in the target, or keys whose rows could match across entries.
std::optional<std::vector<StatisticsSlice>> PlanStatisticsSlices(const CompareOptions& options,
                                                                 const ComparePairSpec& spec, size_t slices);

}  // namespace msprobe::compare::internal
