// The kernel-dump compare's verdict, "Accuracy Reached or Not" (docs/kernel_dump.md §6.2, §6.3), and the
// reason a row did not reach it, in words. The tables keep msprobe's Err_message, empty for a plain
// "No"; the gates, summary.json and JUnit name the failing metric and its value instead.
#pragma once

#include <string>

#include "msprobe/compare/table/cell.h"
#include "msprobe/compare/table/result_row.h"

namespace msprobe::compare {

// NPY mode's check_accuracy (compare.md §5.2) on the Cosine and MaxAbsErr cells.
Accuracy NpyAccuracy(const Cell& cosine, const Cell& max_abs);
// STATISTIC mode's: (NPU max − Bench max) / (max(NPU max, Bench max) + 1e-10) ≤ 0.5, 0 when both are NaN.
Accuracy StatisticAccuracy(float target_max, float golden_max);

// Why a row's Result is what it is, as reports quote it: its Err_message as the tables write it; for a
// kernel-compare row whose Err_message is empty, the rule its Accuracy failed ("Cosine 0.62 < 0.99 and
// MaxAbsErr 0.41 > 0.001", "MaxAbsErr 3 > 1", "no verdict: Cosine unsupported", "(NPU max - Bench max)
// / max(NPU max, Bench max) = 0.8 > 0.5"); "" for a row that passed.
std::string VerdictReason(const ResultRow& row, CompareMode mode, ResultLayout layout);

}  // namespace msprobe::compare
