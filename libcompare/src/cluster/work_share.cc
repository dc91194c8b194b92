#include "cluster/work_share_internal.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace msprobe::compare::internal {

std::vector<PairShare> SharePairs(const std::vector<uint64_t>& bytes, const std::vector<bool>& splittable,
                                  int processes) {
  const uint64_t total = std::accumulate(bytes.begin(), bytes.end(), uint64_t{0});
  const uint64_t share = std::max<uint64_t>(1, (total + processes - 1) / processes);
  struct Item {
    uint64_t bytes;
    size_t pair, slice;
  };
  std::vector<Item> items;
  std::vector<PairShare> shares(bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i) {
    const uint64_t slices =
        splittable[i] && bytes[i] > share ? std::min<uint64_t>(processes, (bytes[i] + share - 1) / share) : 1;
    shares[i].processes.resize(slices, -1);
    for (size_t s = 0; s < slices; ++s) items.push_back({bytes[i] / slices, i, s});
  }
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return std::tie(b.bytes, a.pair, a.slice) < std::tie(a.bytes, b.pair, b.slice);
  });
  std::vector<uint64_t> load(processes, 0);
  for (const Item& item : items) {
    std::vector<int>& owners = shares[item.pair].processes;
    int best = -1;
    for (int p = 0; p < processes; ++p) {
      if (std::find(owners.begin(), owners.end(), p) != owners.end()) continue;
      if (best < 0 || load[p] < load[best]) best = p;
    }
    owners[item.slice] = best;
    load[best] += item.bytes;
  }
  return shares;
}

std::pair<size_t, size_t> SliceRows(size_t rows, size_t slice, size_t slices) {
  return {rows * slice / slices, rows * (slice + 1) / slices};
}

}  // namespace msprobe::compare::internal
