#include "rows/heaviest_chain_internal.h"

#include <algorithm>
#include <numeric>

namespace msprobe::compare::internal {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

// The best chain ending at some b below a bound: a Fenwick tree of prefix maxima over b.
class PrefixBest {
 public:
  explicit PrefixBest(size_t size) : tree_(size + 1) {}

  // The best chain among those ending below b (total 0 and kNone when there is none).
  std::pair<double, size_t> Below(size_t b) const {
    std::pair<double, size_t> best{0.0, kNone};
    for (size_t i = b; i > 0; i -= i & (~i + 1)) {
      if (tree_[i].first > best.first) best = tree_[i];
    }
    return best;
  }
  void Offer(size_t b, double total, size_t candidate) {
    for (size_t i = b + 1; i < tree_.size(); i += i & (~i + 1)) {
      if (total > tree_[i].first) tree_[i] = {total, candidate};
    }
  }

 private:
  std::vector<std::pair<double, size_t>> tree_;
};

}  // namespace

std::vector<size_t> HeaviestChain(const std::vector<ChainCandidate>& candidates, size_t b_count) {
  std::vector<size_t> order(candidates.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return candidates[x].a != candidates[y].a ? candidates[x].a < candidates[y].a : candidates[x].b < candidates[y].b;
  });
  PrefixBest best(b_count);
  std::vector<double> total(candidates.size());
  std::vector<size_t> previous(candidates.size(), kNone);
  std::pair<double, size_t> overall{0.0, kNone};
  for (size_t begin = 0; begin < order.size();) {
    // The candidates of one a chain only to those of smaller a: all of them look before any is offered.
    size_t end = begin;
    while (end < order.size() && candidates[order[end]].a == candidates[order[begin]].a) ++end;
    for (size_t k = begin; k < end; ++k) {
      const size_t c = order[k];
      const auto [before, from] = best.Below(candidates[c].b);
      total[c] = before + candidates[c].weight;
      previous[c] = from;
      if (total[c] > overall.first) overall = {total[c], c};
    }
    for (size_t k = begin; k < end; ++k) best.Offer(candidates[order[k]].b, total[order[k]], order[k]);
    begin = end;
  }
  std::vector<size_t> chain;
  for (size_t c = overall.second; c != kNone; c = previous[c]) chain.push_back(c);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

}  // namespace msprobe::compare::internal
