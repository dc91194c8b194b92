// Statistics-mode diff columns (docs/compare.md §4.3, G3 CalcStatsDiff) and md5-mode cells (§4.4).
#pragma once

#include <string>

#include "msprobe/compare/table/result_row.h"

namespace msprobe::compare {

// Fills row->metrics with the 8 StatsDiff cells from row->target_stats / row->golden_stats:
// "0" when str(N) == str(B); else the rule table of §4.3 on the classified pair. NUM x NUM gives
// the difference as a Float cell (msprobe keeps the float in the frame; the CSV shows its repr) and
// the relative error as text str(abs(d / B * 100)) + "%", or "inf" when B == 0.
// Both numbers are re-parsed from str(value) with pandas' (not correctly rounded) to_numeric, as
// msprobe does, so the last digits match its output. They are always combined as float64:
// pandas keeps an int64 column only when every row of the whole table holds an int, which real
// dumps never do, so "1.0" rather than "1" for ints 3 vs 2 (§4.3 [edge]).
void FillStatsDiff(ResultRow* row);

// Fills row->metrics with {NPU MD5, BENCH MD5}; the golden side is "N/A" when the row is unmatched
// (Bench Name "N/A" or empty, as msprobe tests it).
void FillMd5(ResultRow* row, const std::string& target_md5, const std::string& golden_md5);

// True when a row has no golden side: msprobe's test is Bench Name == "N/A" (or empty).
bool IsUnmatched(const ResultRow& row);

}  // namespace msprobe::compare
