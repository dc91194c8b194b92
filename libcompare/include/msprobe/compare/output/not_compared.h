// The rows a compare run did not compare (docs/compare.md §5.4), in the words every report uses:
// the warning line, the gates' reasons, JUnit's testcase and summary.json's `not_compared`.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "msprobe/compare/output/compare_report.h"

namespace msprobe::compare {

// "8 target row(s) without a golden counterpart (first: NAME, FILE row 5), 3 golden row(s) matched by
// no target row (first: NAME), 2 unreadable tensor(s) (first: REASON)", over `pairs` (each first from
// the first pair that has one).
std::string NotComparedCounts(std::span<const PairResult> pairs);

// The first row of `pairs` not compared, in pair order and in a pair the target rows first, then the
// golden ones, then the unreadable tensors: "FILE row 5: NAME: no golden counterpart", "GOLDEN_JSON:
// NAME: matched by no target row", or why its tensor could not be read. nullopt when every row was compared.
std::optional<std::string> FirstNotCompared(std::span<const PairResult> pairs);

// "2 input(s) not compared; first: DIR: no dump.json (…)".
std::string SkippedInputsText(const std::vector<std::string>& skipped);

// Why nothing was compared in a pair: "rank0: no target row matched a golden row (31 target rows, 40
// golden rows): " and a hint from the dumps' levels, or why it was skipped ("rank1: GOLDEN_JSON: no rows
// to compare …").
std::string NothingComparedText(const PairResult& pair);

}  // namespace msprobe::compare
