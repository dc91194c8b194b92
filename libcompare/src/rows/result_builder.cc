#include "msprobe/compare/rows/result_builder.h"

#include <tbb/parallel_for.h>

#include <atomic>
#include <cstdint>

#include "msprobe/compare/rows/call_alignment.h"
#include "util/vector_pool_internal.h"

namespace msprobe::compare {

namespace {

// Moves the target row's fields when this is its last pair (pairs of one target row are adjacent), copies
// them otherwise: the rows are large and the flattened dump is not needed after this.
template <class T>
T Take(T& field, bool last_use) {
  return last_use ? std::move(field) : field;
}

// Fills the golden columns from a matched golden row. `left` counts the pairs of that row not yet
// filled: the fields are moved when this is the only one left, copied otherwise (always when
// `left` is null: the row serves later batches). A copy counts itself done after it has read the
// row, so a move never overlaps a copy on another core.
void FillGolden(OpRow& b, std::atomic<uint32_t>* left, ResultRow* r) {
  if (left != nullptr && left->load(std::memory_order_acquire) == 1) {
    r->golden_name = std::move(b.name);
    r->golden_dtype = std::move(b.dtype);
    r->golden_shape = std::move(b.shape);
    r->golden_stats = std::move(b.stats);
    r->golden_data_name = std::move(b.data_name);
  } else {
    r->golden_name = b.name;
    r->golden_dtype = b.dtype;
    r->golden_shape = b.shape;
    r->golden_stats = b.stats;
    r->golden_data_name = b.data_name;
    if (left != nullptr) left->fetch_sub(1, std::memory_order_release);
  }
  r->golden_requires_grad = b.requires_grad.value_or("N/A");
}

// Fills rows [begin, end), which hold every pair of their target rows.
void BuildRange(std::vector<OpRow>* target, std::vector<OpRow>* golden, std::vector<std::atomic<uint32_t>>* golden_left,
                const std::vector<RowPair>& pairs, size_t begin, size_t end, std::vector<ResultRow>* rows) {
  for (size_t i = begin; i < end; ++i) {
    const RowPair& pair = pairs[i];
    const bool last_use = i + 1 == end || pairs[i + 1].target != pair.target;
    OpRow& n = (*target)[pair.target];
    ResultRow& r = (*rows)[i];
    r.target_name = Take(n.name, last_use);
    r.target_dtype = Take(n.dtype, last_use);
    r.target_shape = Take(n.shape, last_use);
    r.target_requires_grad = n.requires_grad.value_or("N/A");
    r.target_stats = Take(n.stats, last_use);
    r.target_data_name = Take(n.data_name, last_use);
    r.stack_info = n.stack_info ? Take(*n.stack_info, last_use) : "N/A";
    r.api = Take(n.api, last_use);
    r.state = n.state;
    r.matched = pair.golden.has_value();
    if (pair.golden) {
      FillGolden((*golden)[*pair.golden], golden_left->empty() ? nullptr : &(*golden_left)[*pair.golden], &r);
    } else {  // docs/compare.md §3.2: every missing golden value is "N/A"
      r.golden_name = r.golden_dtype = r.golden_shape = r.golden_requires_grad = "N/A";
      r.golden_stats = {Cell::NA(), Cell::NA(), Cell::NA(), Cell::NA()};
      r.golden_data_name = "N/A";
    }
    // A string comparison, as msprobe's: "N/A" == "N/A" is consistent (docs/compare.md §4.1).
    r.requires_grad_consistent = r.target_requires_grad == r.golden_requires_grad;
  }
}

}  // namespace

std::vector<ResultRow> BuildResultRows(std::vector<OpRow>* target, std::vector<OpRow>* golden,
                                       const std::vector<RowPair>& pairs, std::vector<ResultRow> storage,
                                       bool golden_reused) {
  std::vector<std::atomic<uint32_t>> golden_left(golden_reused ? 0 : golden->size());
  for (const RowPair& pair : pairs) {
    if (pair.golden && !golden_reused) golden_left[*pair.golden].fetch_add(1, std::memory_order_relaxed);
  }
  std::vector<ResultRow> rows = std::move(storage);
  rows.clear();
  internal::ReserveWithSlack(&rows, pairs.size());
  rows.resize(pairs.size());
  // Blocks cut only between target rows, so the pair that moves a target row's fields runs after the
  // pairs that copy them, in the same task.
  constexpr size_t kBlock = 4096;
  std::vector<size_t> cuts{0};
  for (size_t i = kBlock; i < pairs.size(); ++i) {
    if (pairs[i].target != pairs[i - 1].target && i - cuts.back() >= kBlock) cuts.push_back(i);
  }
  cuts.push_back(pairs.size());
  tbb::parallel_for(size_t{0}, cuts.size() - 1,
                    [&](size_t c) { BuildRange(target, golden, &golden_left, pairs, cuts[c], cuts[c + 1], &rows); });
  return rows;
}

void MarkMatchOrigins(const std::vector<RowPair>& pairs, const std::vector<float>& aligned, const MatchOptions& match,
                      std::vector<ResultRow>* rows) {
  // -dm wins over -fm (docs/compare.md §3.6), so a -dm run's pairs are its mapping's.
  const bool mapped = match.data_mapping || match.cell_mapping || match.api_mapping;
  const MatchOrigin renamed = mapped ? MatchOrigin::kMapping : match.fuzzy ? MatchOrigin::kFuzzy : MatchOrigin::kName;
  tbb::parallel_for(size_t{0}, rows->size(), [&](size_t i) {
    ResultRow& row = (*rows)[i];
    if (!pairs[i].golden) {
      row.match_origin = MatchOrigin::kUnmatched;
    } else if (aligned[i] != kNotAligned) {
      row.match_origin = MatchOrigin::kAligned;
      row.align_score = aligned[i];
    } else {
      row.match_origin = row.target_name == row.golden_name ? MatchOrigin::kName : renamed;
    }
  });
}

}  // namespace msprobe::compare
