// G3 Result and Err_message (docs/compare.md §5.1, msprobe's indicator_analysis): per API group, the
// mode's checkers raise each row's Result (error > warning > pass) and append their messages.
#pragma once

#include <vector>

#include "msprobe/compare/rows/consistent_keys.h"
#include "msprobe/compare/table/result_row.h"

namespace msprobe::compare {

// Resets every row to Verdict::kPass with no messages (G3 discards all earlier Err_message texts),
// groups rows by ResultRow::api (first appearance order; rows of one key need not be adjacent),
// and runs the checkers of `mode` in msprobe's order:
//   kTensor:  InfNan, OneThousandth, RequiresGrad, Parameters, DType, Shape, CosineWarn
//   kSummary: InfNan, RelativeErr, RequiresGrad, Parameters, DType, Shape, RelativeWarn
//   kMd5:     CRC32
// REQUIRES: row->metrics holds the mode's cells (6 TensorMetric, 8 StatsDiff or 2 md5 cells);
// a missing cell reads as "N/A".
// `consistent` (--consistent_check, docs/compare.md §3.9): tensor mode runs msprobe's verl checkers
// (InfNan, OneThousandth, Parameters, DType, VerlShape, CosineWarn), and the verdicts are written back
// as msprobe writes them: group after group, onto the rows in table order (the same rows when each
// group's rows are adjacent; shifted otherwise).
void ApplyVerdicts(std::vector<ResultRow>* rows, CompareMode mode, ConsistentBackend consistent = ConsistentBackend::kNone);

}  // namespace msprobe::compare
