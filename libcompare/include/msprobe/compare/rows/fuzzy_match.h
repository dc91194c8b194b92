// -fm: matching that ignores call counts (docs/compare.md §3.5), msprobe's rename() and queue, literally.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/rows/match.h"

namespace msprobe::compare {

// msprobe `rename_api`: split at the first "forward" (else "backward"); keep the head without its
// last two '.'-components, then the word and the text up to the word's next occurrence.
// "Functional.relu.3.forward.input.0" → "Functional.relu.forward.input.0".
std::string FuzzyRename(std::string_view name);

// msprobe `process_fuzzy_match` over the compare keys: pairs in emission order. Target rows never
// enqueued (the loop breaks when exactly one queue is empty) are absent.
std::vector<RowPair> FuzzyMatchKeys(const std::vector<std::string_view>& target_keys,
                                    const std::vector<std::string_view>& golden_keys);

}  // namespace msprobe::compare
