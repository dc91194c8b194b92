// Who compares what in a distributed run (docs/distributed.md §2): pairs balanced by bytes over the
// processes, largest first, and a pair larger than one process's share split by rows among several.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace msprobe::compare::internal {

// The processes that compare one pair: one, or several that each compute a slice of its rows (slice
// s by processes[s]); processes[0] owns the pair and writes its files.
struct PairShare {
  std::vector<int> processes;
};

// Each pair's share: a pair may be split when `splittable` and larger than total / processes, into as
// many slices as shares it holds (at most one per process). Slices and whole pairs go largest first
// to the process with the fewest bytes so far (the lowest on a tie), never two slices of a pair to
// one process. The same inputs give the same shares on every process.
std::vector<PairShare> SharePairs(const std::vector<uint64_t>& bytes, const std::vector<bool>& splittable,
                                  int processes);

// Rows [begin, end) of slice `slice` of `slices` over `rows` rows.
std::pair<size_t, size_t> SliceRows(size_t rows, size_t slice, size_t slices);

}  // namespace msprobe::compare::internal
