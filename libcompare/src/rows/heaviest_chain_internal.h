// --align (docs/compare.md §3.8): the best global alignment of two call sequences over the call pairs
// worth considering, as the heaviest chain of pairs increasing on both sides (a sparse form of the
// alignment's dynamic programme: time O(K log K) and memory O(K) for K candidate pairs, where the
// full table would take the product of the two lengths).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace msprobe::compare::internal {

// A pair of the a-th call of one sequence and the b-th of the other, worth `weight` > 0 when chosen.
struct ChainCandidate {
  uint32_t a = 0, b = 0;
  float weight = 0;
};

// The indices (into `candidates`) of the chain with the largest total weight whose a and b both
// increase strictly, in increasing order; calls outside it stay unpaired, at no cost. Among chains of
// equal weight, the one found first in (a, b) order. `b_count`: every candidate's b is below it.
std::vector<size_t> HeaviestChain(const std::vector<ChainCandidate>& candidates, size_t b_count);

}  // namespace msprobe::compare::internal
