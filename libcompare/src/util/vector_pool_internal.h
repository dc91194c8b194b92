// Storage of finished pairs' row vectors, kept for the pairs after them. glibc serves allocations
// of this size outside the main thread from fresh mappings and unmaps them when freed, so every
// pair would otherwise fault in, and the kernel zero, a gigabyte of new pages.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <mutex>
#include <utility>
#include <vector>

namespace msprobe::compare::internal {

template <class T>
class VectorPool {
 public:
  // An empty vector, with the capacity of one given back if there is one.
  std::vector<T> Take() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty()) return {};
    std::vector<T> rows = std::move(free_.back());
    free_.pop_back();
    return rows;
  }

  // Destroys the rows on all cores (a compare holds millions of rows with heap strings; one thread
  // freeing them takes about a second) and keeps their storage; `rows` is left empty.
  void Give(std::vector<T>* rows) {
    constexpr size_t kGrain = 4096;
    tbb::parallel_for(tbb::blocked_range<size_t>(0, rows->size(), kGrain), [rows](const auto& range) {
      for (size_t i = range.begin(); i < range.end(); ++i) {
        [[maybe_unused]] T released = std::move((*rows)[i]);  // leaves an empty row, cheap to destroy
      }
    });
    rows->clear();
    const std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::exchange(*rows, {}));
  }

 private:
  std::mutex mutex_;
  std::vector<std::vector<T>> free_;
};

// Room for `n` rows, an eighth more when the vector must grow: then pairs of dumps of about one
// size reuse each other's storage, where an exact fit would be a few rows short half the time.
template <class T>
void ReserveWithSlack(std::vector<T>* rows, size_t n) {
  if (rows->capacity() < n) rows->reserve(n + n / 8);
}

}  // namespace msprobe::compare::internal
