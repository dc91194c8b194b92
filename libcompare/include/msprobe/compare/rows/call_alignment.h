// --align (ours, docs/compare.md §3.8): after msprobe's matching, and never changing a pair it made,
// pairs the target rows it left unmatched with golden rows no target row matched, by aligning the two
// runs' call sequences: per stream (API or module calls, forward, backward, parameter gradients), in
// each gap between calls that matched, the calls left over are aligned on how alike they are (the op
// under any namespace, shapes, recorded values); rows of an aligned call pair then pair by their
// place in the call, under msprobe's dtype rule.
#pragma once

#include <vector>

#include "msprobe/compare/rows/match.h"
#include "msprobe/compare/table/op_row.h"

namespace msprobe::compare {

// The score (call_score_internal.h) below which a call stays unmatched: under it, fewer than 1% of
// the rows --align pairs were paired wrongly on our measurements (docs/compare.md §3.8).
inline constexpr float kDefaultAlignThreshold = 0.75f;

struct AlignOptions {
  float threshold = kDefaultAlignThreshold;
  bool md5 = false;  // the dumps hold md5 summaries (CompareMode::kMd5): equal sums are equal tensors
};

// A pair's score when --align did not make it.
inline constexpr float kNotAligned = -1.f;

// Pairs unmatched target rows of `pairs` (MatchRows's, for these rows and options) with golden rows no
// pair holds, in place; returns, per pair, the score of the call pair it was aligned in, or
// kNotAligned. A debug.json (keys are names, not calls) aligns nothing.
std::vector<float> AlignUnmatchedCalls(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                                       const MatchOptions& match, const AlignOptions& align,
                                       std::vector<RowPair>* pairs);

}  // namespace msprobe::compare
