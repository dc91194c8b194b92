// The heaviest chain of call pairs increasing on both sides (--align's alignment, docs/compare.md §3.8).
#include "rows/heaviest_chain_internal.h"

#include <gtest/gtest.h>

#include <random>

namespace msprobe::compare::internal {
namespace {

TEST(HeaviestChainTest, NoCandidatesNoChain) { EXPECT_TRUE(HeaviestChain({}, 0).empty()); }

TEST(HeaviestChainTest, TheHeavierOfTwoCrossingPairsWins) {
  EXPECT_EQ(HeaviestChain({{0, 1, 0.5f}, {1, 0, 0.2f}}, 2), (std::vector<size_t>{0}));
  EXPECT_EQ(HeaviestChain({{0, 1, 0.2f}, {1, 0, 0.5f}}, 2), (std::vector<size_t>{1}));
}

TEST(HeaviestChainTest, TwoLighterPairsInOrderOutweighOneCrossingThem) {
  EXPECT_EQ(HeaviestChain({{0, 2, 0.5f}, {1, 0, 0.3f}, {2, 1, 0.3f}}, 3), (std::vector<size_t>{1, 2}));
}

TEST(HeaviestChainTest, ACallPairsOnceOnEachSide) {
  // Three golden calls for one target call, and one golden call for three target calls.
  EXPECT_EQ(HeaviestChain({{0, 0, 0.1f}, {0, 1, 0.3f}, {0, 2, 0.2f}}, 3), (std::vector<size_t>{1}));
  EXPECT_EQ(HeaviestChain({{0, 0, 0.1f}, {1, 0, 0.3f}, {2, 0, 0.2f}}, 1), (std::vector<size_t>{1}));
}

TEST(HeaviestChainTest, EqualChainsGiveTheFirstFound) {
  EXPECT_EQ(HeaviestChain({{0, 0, 0.5f}, {0, 1, 0.5f}}, 2), (std::vector<size_t>{0}));
}

// Against an exhaustive search on small random instances: the chain's weight is the best there is.
TEST(HeaviestChainTest, AgreesWithTheFullDynamicProgramme) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    const uint32_t n = 1 + rng() % 7, m = 1 + rng() % 7;
    std::vector<ChainCandidate> candidates;
    std::vector<std::vector<float>> weight(n, std::vector<float>(m, 0));
    for (uint32_t a = 0; a < n; ++a) {
      for (uint32_t b = 0; b < m; ++b) {
        if (rng() % 3 == 0) continue;
        weight[a][b] = static_cast<float>(1 + rng() % 9) / 10;
        candidates.push_back({a, b, weight[a][b]});
      }
    }
    std::vector<std::vector<double>> best(n + 1, std::vector<double>(m + 1, 0));
    for (uint32_t a = 1; a <= n; ++a) {
      for (uint32_t b = 1; b <= m; ++b) {
        best[a][b] = std::max({best[a - 1][b], best[a][b - 1], best[a - 1][b - 1] + weight[a - 1][b - 1]});
      }
    }
    double total = 0;
    uint32_t last_a = 0, last_b = 0;
    bool first = true;
    for (const size_t c : HeaviestChain(candidates, m)) {
      if (!first) {
        EXPECT_TRUE(candidates[c].a > last_a && candidates[c].b > last_b);
      }
      first = false;
      last_a = candidates[c].a;
      last_b = candidates[c].b;
      total += candidates[c].weight;
    }
    EXPECT_NEAR(total, best[n][m], 1e-6) << "round " << round;
  }
}

}  // namespace
}  // namespace msprobe::compare::internal
