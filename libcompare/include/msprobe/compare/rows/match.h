// Pairs NPU rows with bench rows as msprobe G3 does (docs/compare.md §3): compare keys (backward
// renumbering, -am/-cm/-dm), an exact join on the key or the -fm queue, and the dtype rule.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/rows/name_mapping.h"
#include "msprobe/compare/table/op_row.h"

namespace msprobe::compare {

struct MatchOptions {
  bool fuzzy = false;                           // -fm
  bool is_debug = false;                        // debug.json: no backward renumbering
  bool cross_framework = false;                 // MindSpore/MindTorch NPU vs PyTorch bench
  const DataMapping* data_mapping = nullptr;    // -dm
  const CellMapping* cell_mapping = nullptr;    // -cm (the empty mapping = rules only)
  const ApiMapping* api_mapping = nullptr;      // -am (built-in rules + user entries)
};

// One output row: an NPU row and its bench row, if any (indices into the row vectors).
struct RowPair {
  size_t npu;
  std::optional<size_t> bench;
  bool operator==(const RowPair&) const = default;
};

// The output rows in NPU order. Every NPU row appears at least once (except NPU rows the -fm queue
// never reaches, §3.5), once per bench row sharing its key (§3.2.5); bench-only rows are dropped.
// A pair whose dtypes fail DtypesCompatible is unmatched (§3.2.4), except under -dm.
std::vector<RowPair> MatchRows(const std::vector<OpRow>& npu, const std::vector<OpRow>& bench,
                               const MatchOptions& options);

class BenchKeyIndex;

// The bench side of MatchRows indexed once, for NPU rows that come in batches of whole entries (a
// streamed dump, flatten.h): the exact join on plain keys, without -fm or an -am/-cm/-dm mapping.
// Keeps references to `bench` and `options`.
class BenchMatcher {
 public:
  BenchMatcher(const std::vector<OpRow>& bench, const MatchOptions& options);
  ~BenchMatcher();
  BenchMatcher(const BenchMatcher&) = delete;
  BenchMatcher& operator=(const BenchMatcher&) = delete;

  // MatchRows(npu, bench, options) for these NPU rows; the pairs index `npu` and `bench`.
  std::vector<RowPair> Match(const std::vector<OpRow>& npu) const;

 private:
  const std::vector<OpRow>& bench_;
  const MatchOptions& options_;
  std::unique_ptr<std::deque<std::string>> renumbered_;  // the bench keys that are not row names
  std::unique_ptr<BenchKeyIndex> index_;
};

// op_name_update (§3.1): for a backward row, the call number in call_direction replaced by
// backward_call_order; the name itself for every other row.
std::string BackwardRenumberedName(const OpRow& row);

// The compare keys of each side (§3.1), as MatchRows uses them.
std::vector<std::string> NpuCompareKeys(const std::vector<OpRow>& npu, const std::vector<OpRow>& bench,
                                        const MatchOptions& options);
std::vector<std::string> BenchCompareKeys(const std::vector<OpRow>& bench, const MatchOptions& options);

// The dtype rule of §3.2.4 on the dtype strings as dumped.
bool DtypesCompatible(std::string_view npu_dtype, std::string_view bench_dtype, bool cross_framework);

}  // namespace msprobe::compare
