#include "msprobe/compare/result_builder.h"

namespace msprobe::compare {

std::vector<ResultRow> BuildResultRows(const std::vector<OpRow>& npu, const std::vector<OpRow>& bench,
                                       const std::vector<RowPair>& pairs) {
  std::vector<ResultRow> rows;
  rows.reserve(pairs.size());
  for (const RowPair& pair : pairs) {
    const OpRow& n = npu[pair.npu];
    const OpRow* b = pair.bench ? &bench[*pair.bench] : nullptr;
    ResultRow r;
    r.npu_name = n.name;
    r.npu_dtype = n.dtype;
    r.npu_shape = n.shape;
    r.npu_requires_grad = n.requires_grad.value_or("N/A");
    r.npu_stats = n.stats;
    r.npu_data_name = n.data_name;
    r.stack_info = n.stack_info.value_or("N/A");
    r.api = n.api;
    r.state = n.state;
    r.matched = b != nullptr;
    if (b) {
      r.bench_name = b->name;
      r.bench_dtype = b->dtype;
      r.bench_shape = b->shape;
      r.bench_requires_grad = b->requires_grad.value_or("N/A");
      r.bench_stats = b->stats;
      r.bench_data_name = b->data_name;
    } else {  // compare.md §3.2: every missing bench value is "N/A"
      r.bench_name = r.bench_dtype = r.bench_shape = r.bench_requires_grad = "N/A";
      r.bench_stats = {Cell::NA(), Cell::NA(), Cell::NA(), Cell::NA()};
      r.bench_data_name = "N/A";
    }
    // A string comparison, as msprobe's: "N/A" == "N/A" is consistent (compare.md §4.1).
    r.requires_grad_consistent = r.npu_requires_grad == r.bench_requires_grad;
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace msprobe::compare
