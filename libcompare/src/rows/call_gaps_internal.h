// --align (docs/compare.md §3.8): the two runs' calls and the gaps between the calls msprobe's
// matching paired. Each side's entries (its rows grouped by api_origin_name) fall into streams
// (op_identity_internal.h); in each stream the entries whose rows matched are anchors, and the
// entries left wholly unmatched between two consecutive anchors on one side align with those between
// the same anchors on the other.
#pragma once

#include <cstdint>
#include <vector>

#include "msprobe/compare/rows/match.h"
#include "rows/call_score_internal.h"
#include "rows/op_identity_internal.h"

namespace msprobe::compare::internal {

inline constexpr uint32_t kNoCall = UINT32_MAX;

struct CallEntry {
  CallRows rows;
  CallStream stream = CallStream::kNone;
  bool open = false;          // no row of it is paired (on the target side: every row is in a pair)
  uint32_t anchor = kNoCall;  // target side: the golden entry of its first paired row
};

// A side's entries in row order; a run of rows sharing an api_origin_name is one entry. Not yet
// open nor anchored.
std::vector<CallEntry> SplitCalls(const std::vector<OpRow>& rows);

// Marks each entry open or anchored from msprobe's pairs.
void MarkPaired(const std::vector<RowPair>& pairs, size_t target_rows, size_t golden_rows,
                std::vector<CallEntry>* target_calls, std::vector<CallEntry>* golden_calls);

// One gap of one stream: the open entries each side has between two anchors (or an end).
struct CallGap {
  std::vector<uint32_t> target, golden;        // entry indices, in order
  std::vector<uint32_t> target_at, golden_at;  // their places in the gap (0: its first call, open or not)
  uint32_t target_span = 0, golden_span = 0;   // the gap's calls, open or not
};

// The gaps with open entries on both sides. The anchors of a stream that delimit gaps are the
// largest set of them in the same order on both sides; an anchor crossing them lies inside a gap.
std::vector<CallGap> FindGaps(const std::vector<CallEntry>& target_calls, const std::vector<CallEntry>& golden_calls);

}  // namespace msprobe::compare::internal
