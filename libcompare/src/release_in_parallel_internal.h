// Frees a large vector of rows on all cores. A statistics compare holds millions of rows with a
// dozen heap strings each; one thread freeing them takes about a second.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <utility>
#include <vector>

namespace msprobe::compare::internal {

// Destroys the rows on all cores and keeps the vector's storage.
template <class T>
void ClearInParallel(std::vector<T>* rows) {
  constexpr size_t kGrain = 4096;
  tbb::parallel_for(tbb::blocked_range<size_t>(0, rows->size(), kGrain), [rows](const auto& range) {
    for (size_t i = range.begin(); i < range.end(); ++i) {
      [[maybe_unused]] T released = std::move((*rows)[i]);  // leaves an empty row, cheap to destroy
    }
  });
  rows->clear();
}

template <class T>
void ReleaseInParallel(std::vector<T>* rows) {
  ClearInParallel(rows);
  std::vector<T>().swap(*rows);
}

}  // namespace msprobe::compare::internal
