#include "msprobe/compare/rows/golden_row_use.h"

#include <algorithm>

namespace msprobe::compare {

void GoldenRowUse::Mark(const std::vector<RowPair>& pairs) {
  for (const RowPair& pair : pairs) {
    if (pair.golden) used_[*pair.golden] = true;
  }
}

uint64_t GoldenRowUse::Unmatched() const {
  return static_cast<uint64_t>(std::count(used_.begin(), used_.end(), false));
}

std::optional<size_t> GoldenRowUse::FirstUnmatched() const {
  const auto it = std::find(used_.begin(), used_.end(), false);
  if (it == used_.end()) return std::nullopt;
  return static_cast<size_t>(it - used_.begin());
}

uint64_t TargetRowsLeftOut(const std::vector<RowPair>& pairs, size_t target_rows) {
  std::vector<bool> seen(target_rows, false);
  for (const RowPair& pair : pairs) seen[pair.target] = true;
  return static_cast<uint64_t>(std::count(seen.begin(), seen.end(), false));
}

}  // namespace msprobe::compare
