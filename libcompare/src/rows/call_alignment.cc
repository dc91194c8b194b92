#include "msprobe/compare/rows/call_alignment.h"

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>

#include "rows/call_gaps_internal.h"
#include "rows/call_score_internal.h"
#include "rows/heaviest_chain_internal.h"
#include "rows/op_identity_internal.h"

namespace msprobe::compare {
namespace {

using internal::CallEntry;
using internal::CallGap;
using internal::CallRows;
using internal::kNoCall;

// Within a gap, the calls sharing a key (an op, or the shapes of a renamed op) are all paired up to
// this many pairs; more, and each target call meets the golden calls within kBand of it (docs/compare.md
// §3.8): by rank among the key's calls, and by place in the gap.
constexpr size_t kWholeGroup = 4096;
constexpr uint32_t kBand = 8;
// Added to a chosen pair's weight (its score above the threshold), so that a pair at the threshold
// still counts.
constexpr float kChainMargin = 1e-3f;

// Each open entry's op (OpIdentity) and signature (its first tensor input's and output's shape and
// dtype class: what a renamed op keeps), as small numbers shared by both sides; kNoCall elsewhere.
struct CallKeys {
  std::vector<uint32_t> op, signature;
};

class Interner {
 public:
  uint32_t Id(std::string text) {
    return ids_.try_emplace(std::move(text), static_cast<uint32_t>(ids_.size())).first->second;
  }

 private:
  std::unordered_map<std::string, uint32_t> ids_;
};

std::string Signature(const std::vector<OpRow>& rows, CallRows call) {
  std::string in, out;
  for (size_t r = call.first; r < call.first + call.count; ++r) {
    const OpRow& row = rows[r];
    std::string* slot = row.state == RowState::kInput ? &in : row.state == RowState::kOutput ? &out : nullptr;
    if (slot != nullptr && slot->empty() && internal::IsTensorDtype(row.dtype)) {
      *slot = row.shape + ' ' + std::string(internal::DtypeClass(row.dtype));
    }
  }
  return in.empty() && out.empty() ? std::string() : in + '|' + out;
}

CallKeys KeysOf(const std::vector<OpRow>& rows, const std::vector<CallEntry>& calls, bool mindspore, Interner* ops,
                Interner* signatures) {
  std::vector<std::string> op(calls.size()), signature(calls.size());
  tbb::parallel_for(size_t{0}, calls.size(), [&](size_t e) {
    if (!calls[e].open) return;
    op[e] = internal::OpIdentity(SplitKey(rows[calls[e].rows.first].api, false).op_no_number, mindspore);
    signature[e] = Signature(rows, calls[e].rows);
  });
  CallKeys keys{std::vector<uint32_t>(calls.size(), kNoCall), std::vector<uint32_t>(calls.size(), kNoCall)};
  for (size_t e = 0; e < calls.size(); ++e) {
    if (!calls[e].open) continue;
    keys.op[e] = ops->Id(std::move(op[e]));
    if (!signature[e].empty()) keys.signature[e] = signatures->Id(std::move(signature[e]));
  }
  return keys;
}

// The gap's calls of one key, as indices into CallGap::target and ::golden.
struct KeyGroup {
  std::vector<uint32_t> target, golden;
};

// Adds [lo, hi] of the group's golden calls, clipped to it, as candidates for target call `a`.
void AddRange(const KeyGroup& group, uint32_t a, int64_t lo, int64_t hi, std::vector<std::pair<uint32_t, uint32_t>>* out) {
  lo = std::max<int64_t>(lo, 0);
  hi = std::min<int64_t>(hi, static_cast<int64_t>(group.golden.size()) - 1);
  for (int64_t k = lo; k <= hi; ++k) out->emplace_back(group.target[a], group.golden[static_cast<size_t>(k)]);
}

// A group's candidate pairs: all of them when few, else a band around two diagonals (kBand).
void GroupCandidates(const KeyGroup& group, const CallGap& gap, std::vector<std::pair<uint32_t, uint32_t>>* out) {
  const size_t p = group.target.size(), q = group.golden.size();
  if (p * q <= kWholeGroup) {
    for (uint32_t a = 0; a < p; ++a) AddRange(group, a, 0, static_cast<int64_t>(q) - 1, out);
    return;
  }
  for (uint32_t a = 0; a < p; ++a) {
    const auto by_rank = static_cast<int64_t>(static_cast<double>(a) * static_cast<double>(q) / static_cast<double>(p));
    const double place = (gap.target_at[group.target[a]] + 0.5) * gap.golden_span / gap.target_span;
    const auto by_place = static_cast<int64_t>(
        std::lower_bound(group.golden.begin(), group.golden.end(), place,
                         [&](uint32_t b, double at) { return gap.golden_at[b] < at; }) -
        group.golden.begin());
    const int64_t lo = std::min(by_rank, by_place), hi = std::max(by_rank, by_place);
    if (hi - lo <= 2 * kBand) {
      AddRange(group, a, lo - kBand, hi + kBand, out);
    } else {
      AddRange(group, a, by_rank - kBand, by_rank + kBand, out);
      AddRange(group, a, by_place - kBand, by_place + kBand, out);
    }
  }
}

// The gap's call pairs worth scoring: those of one op, and those of different ops with one signature.
std::vector<std::pair<uint32_t, uint32_t>> GapCandidates(const CallGap& gap, const CallKeys& target_keys,
                                                         const CallKeys& golden_keys) {
  std::unordered_map<uint32_t, KeyGroup> by_op, by_signature;
  for (uint32_t i = 0; i < gap.target.size(); ++i) {
    by_op[target_keys.op[gap.target[i]]].target.push_back(i);
    const uint32_t signature = target_keys.signature[gap.target[i]];
    if (signature != kNoCall) by_signature[signature].target.push_back(i);
  }
  for (uint32_t i = 0; i < gap.golden.size(); ++i) {
    if (auto it = by_op.find(golden_keys.op[gap.golden[i]]); it != by_op.end()) it->second.golden.push_back(i);
    const uint32_t signature = golden_keys.signature[gap.golden[i]];
    if (signature == kNoCall) continue;
    if (auto it = by_signature.find(signature); it != by_signature.end()) it->second.golden.push_back(i);
  }
  std::vector<std::pair<uint32_t, uint32_t>> candidates;
  for (const auto& [op, group] : by_op) GroupCandidates(group, gap, &candidates);
  std::vector<std::pair<uint32_t, uint32_t>> renamed;
  for (const auto& [signature, group] : by_signature) GroupCandidates(group, gap, &renamed);
  for (const auto& [a, b] : renamed) {  // pairs of one op came with their op's group
    if (target_keys.op[gap.target[a]] != golden_keys.op[gap.golden[b]]) candidates.emplace_back(a, b);
  }
  return candidates;
}

struct CallPair {
  uint32_t target, golden;
  float score;
};

// The gap's calls aligned: the candidates scored, those at the threshold or above chained.
std::vector<CallPair> AlignGap(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                               const std::vector<CallEntry>& target_calls, const std::vector<CallEntry>& golden_calls,
                               const CallGap& gap, const CallKeys& target_keys, const CallKeys& golden_keys,
                               const MatchOptions& match, const AlignOptions& align) {
  const std::vector<std::pair<uint32_t, uint32_t>> candidates = GapCandidates(gap, target_keys, golden_keys);
  std::vector<float> scores(candidates.size());
  tbb::parallel_for(size_t{0}, candidates.size(), [&](size_t c) {
    const uint32_t a = gap.target[candidates[c].first], b = gap.golden[candidates[c].second];
    scores[c] = internal::CallScore(target, target_calls[a].rows, golden, golden_calls[b].rows,
                                    target_keys.op[a] == golden_keys.op[b], match.cross_framework, align.md5);
  });
  std::vector<internal::ChainCandidate> chain_candidates;
  std::vector<float> chain_scores;
  for (size_t c = 0; c < candidates.size(); ++c) {
    if (scores[c] < align.threshold) continue;
    chain_candidates.push_back({candidates[c].first, candidates[c].second, scores[c] - align.threshold + kChainMargin});
    chain_scores.push_back(scores[c]);
  }
  std::vector<CallPair> aligned;
  for (const size_t c : internal::HeaviestChain(chain_candidates, gap.golden.size())) {
    aligned.push_back({gap.target[chain_candidates[c].a], gap.golden[chain_candidates[c].b], chain_scores[c]});
  }
  return aligned;
}

}  // namespace

std::vector<float> AlignUnmatchedCalls(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                                       const MatchOptions& match, const AlignOptions& align,
                                       std::vector<RowPair>* pairs) {
  std::vector<float> scores(pairs->size(), kNotAligned);
  if (match.is_debug) return scores;
  std::vector<CallEntry> target_calls, golden_calls;
  tbb::parallel_invoke([&] { target_calls = internal::SplitCalls(target); },
                       [&] { golden_calls = internal::SplitCalls(golden); });
  internal::MarkPaired(*pairs, target.size(), golden.size(), &target_calls, &golden_calls);
  const std::vector<CallGap> gaps = internal::FindGaps(target_calls, golden_calls);
  Interner ops, signatures;
  const CallKeys target_keys = KeysOf(target, target_calls, match.cross_framework, &ops, &signatures);
  const CallKeys golden_keys = KeysOf(golden, golden_calls, false, &ops, &signatures);
  std::vector<std::vector<CallPair>> aligned(gaps.size());
  tbb::parallel_for(size_t{0}, gaps.size(), [&](size_t g) {
    aligned[g] = AlignGap(target, golden, target_calls, golden_calls, gaps[g], target_keys, golden_keys, match, align);
  });
  // Each target row of an open entry is in one pair, unmatched.
  std::vector<uint32_t> pair_of(target.size(), kNoCall);
  for (size_t i = 0; i < pairs->size(); ++i) {
    if (!(*pairs)[i].golden) pair_of[(*pairs)[i].target] = static_cast<uint32_t>(i);
  }
  tbb::parallel_for(size_t{0}, aligned.size(), [&](size_t g) {
    for (const CallPair& call : aligned[g]) {
      for (const auto& [n, b] : internal::PairCallRows(target, target_calls[call.target].rows, golden,
                                                       golden_calls[call.golden].rows, match.cross_framework)) {
        (*pairs)[pair_of[n]].golden = b;
        scores[pair_of[n]] = call.score;
      }
    }
  });
  return scores;
}

}  // namespace msprobe::compare
