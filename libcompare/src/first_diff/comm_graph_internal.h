// The communication graph of msprobe's -da (docs/compare.md §8.2, "during comm"): each rank's
// communication ops from its first one on become nodes chained in call order, carrying the
// differing compute ops that ran before them; nodes of different ranks are linked by API name,
// direction (src/dst/link) and group or peer ranks; nodes with nothing wrong are pruned; connected
// groups are searched in layer order and the nodes with the smallest (layer, sub_layer) win.
#pragma once

#include <optional>
#include <vector>

#include "msprobe/compare/first_diff/diff_analyze.h"

namespace msprobe::compare {

struct CommunicationSearch {
  std::vector<DiffNodeRef> during;  // the winners of the graph search
  std::vector<DiffNodeRef> after;   // per rank, the first differing compute op after its last communication
};

// first_comm[rank_pos]: index of the rank's first communication op (nullopt: it has none, or the
// search before communication stopped early on it).
CommunicationSearch SearchCommunication(const std::vector<RankDiffs>& ranks,
                                        const std::vector<std::optional<size_t>>& first_comm);

}  // namespace msprobe::compare
