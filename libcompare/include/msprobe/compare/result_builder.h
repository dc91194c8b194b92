// Builds the result rows of one compared pair from its flattened rows and their matching: the
// columns every mode shares (compare.md §4.1), before metrics and verdicts are filled in.
#pragma once

#include <vector>

#include "msprobe/compare/match.h"
#include "msprobe/compare/op_row.h"
#include "msprobe/compare/result_row.h"

namespace msprobe::compare {

std::vector<ResultRow> BuildResultRows(const std::vector<OpRow>& npu, const std::vector<OpRow>& bench,
                                       const std::vector<RowPair>& pairs);

}  // namespace msprobe::compare
