// Which dumps compare with which, and how a pair of them is compared (docs/compare.md §1.2, §6.1):
// the rules every way of comparing a pair (jobs/pair_compare, pair_in_memory, the statistics slices)
// decides by.
#pragma once

#include "jobs/compare_inputs_internal.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/rows/flatten.h"

namespace msprobe::compare::internal {

// docs/compare.md §1.2: which dumps compare with which, told by their headers and modes.
Status CheckFrameworks(const FlatDump& target, const FlatDump& golden, const CompareOptions& options);
// A MindSpore target against a PyTorch golden dump: its names are mapped to PyTorch's to match.
bool CrossFramework(const FlatDump& target, const FlatDump& golden);
// -da compares statistics even for tensor dumps (msprobe downgrades ALL to SUMMARY).
CompareMode ComparedMode(const CompareOptions& options, CompareMode mode);
// Whether a pair can stream its target (docs/compare.md §6.1), which a statistics pair shared by rows
// needs too: its rows match on their own keys, and its golden dump holds statistics.
bool MayStream(const CompareOptions& options, const ComparePairSpec& spec);
// The target rows a streamed pair compares at once, against `golden_rows`: the option's, or a
// sixty-fourth of the golden rows when that is fewer (no fewer than 1024).
size_t StreamBatchRows(const CompareOptions& options, size_t golden_rows);

}  // namespace msprobe::compare::internal
