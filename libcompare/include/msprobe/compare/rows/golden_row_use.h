// Which golden rows a pair's target rows matched, over one matching or several (a streamed pair's
// batches, all against the same golden rows). msprobe drops the golden rows no target row matched,
// so they are in no output; we count them (docs/compare.md §5.4).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "msprobe/compare/rows/match.h"

namespace msprobe::compare {

class GoldenRowUse {
 public:
  explicit GoldenRowUse(size_t golden_rows) : used_(golden_rows, false) {}

  // The golden rows `pairs` names are matched.
  void Mark(const std::vector<RowPair>& pairs);
  // The golden rows no pair named so far.
  uint64_t Unmatched() const;
  // The first of them, or nullopt.
  std::optional<size_t> FirstUnmatched() const;

 private:
  std::vector<bool> used_;
};

// The target rows `pairs` leaves out: -fm's queue stops before them (§3.5), and they are in no output.
uint64_t TargetRowsLeftOut(const std::vector<RowPair>& pairs, size_t target_rows);

}  // namespace msprobe::compare
