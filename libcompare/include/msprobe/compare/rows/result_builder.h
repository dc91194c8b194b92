// Builds the result rows of one compared pair from its flattened rows and their matching: the
// columns every mode shares (docs/compare.md §4.1), before metrics and verdicts are filled in.
#pragma once

#include <vector>

#include "msprobe/compare/rows/match.h"
#include "msprobe/compare/table/op_row.h"
#include "msprobe/compare/table/result_row.h"

namespace msprobe::compare {

// Moves the rows' names, dtypes, shapes, statistics, data names and (target) stacks and APIs into the
// result; their md5, requires_grad, P2POp and matching fields stay. `storage` lends its capacity to
// the result rows. `golden_reused`: the golden rows serve later batches of target rows, so their fields
// are copied, never moved.
std::vector<ResultRow> BuildResultRows(std::vector<OpRow>* target, std::vector<OpRow>* golden,
                                       const std::vector<RowPair>& pairs, std::vector<ResultRow> storage = {},
                                       bool golden_reused = false);

// --align's Match column: how each row built from `pairs` (BuildResultRows's, names filled in) found its
// golden row. `aligned`: per pair, AlignUnmatchedCalls's score or kNotAligned; `match`: how MatchRows
// paired, whose -fm or mapping names a pair whose two names differ.
void MarkMatchOrigins(const std::vector<RowPair>& pairs, const std::vector<float>& aligned, const MatchOptions& match,
                      std::vector<ResultRow>* rows);

}  // namespace msprobe::compare
