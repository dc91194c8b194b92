// The rows a compare run did not compare (docs/compare.md §5.4), in the words every report uses:
// the warning line, the gates' reasons, JUnit's testcase and summary.json's `not_compared`.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

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

// Why a pair in which no target row matched a golden row failed: "rank0: no target row matched a golden
// row (31 target rows, 40 golden rows): " and a hint from the dumps' levels.
std::string NoRowMatchedText(const PairResult& pair);

}  // namespace msprobe::compare
