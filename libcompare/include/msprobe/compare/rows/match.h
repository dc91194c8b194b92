// Pairs target rows with golden rows as msprobe G3 does (docs/compare.md §3): compare keys (backward
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
  bool cross_framework = false;                 // MindSpore/MindTorch target vs PyTorch golden
  const DataMapping* data_mapping = nullptr;    // -dm
  const CellMapping* cell_mapping = nullptr;    // -cm (the empty mapping = rules only)
  const ApiMapping* api_mapping = nullptr;      // -am (built-in rules + user entries)
};

// One output row: a target row and its golden row, if any (indices into the row vectors).
struct RowPair {
  size_t target;
  std::optional<size_t> golden;
  bool operator==(const RowPair&) const = default;
};

// The output rows in target order. Every target row appears at least once (except target rows the -fm queue
// never reaches, §3.5), once per golden row sharing its key (§3.2.5); golden-only rows are dropped.
// A pair whose dtypes fail DtypesCompatible is unmatched (§3.2.4), except under -dm.
std::vector<RowPair> MatchRows(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                               const MatchOptions& options);

class GoldenKeyIndex;

// The golden side of MatchRows indexed once, for target rows that come in batches of whole entries (a
// streamed dump, flatten.h): the exact join on plain keys, without -fm or an -am/-cm/-dm mapping.
// Keeps references to `golden` and `options`.
class GoldenMatcher {
 public:
  GoldenMatcher(const std::vector<OpRow>& golden, const MatchOptions& options);
  ~GoldenMatcher();
  GoldenMatcher(const GoldenMatcher&) = delete;
  GoldenMatcher& operator=(const GoldenMatcher&) = delete;

  // MatchRows(target, golden, options) for these target rows; the pairs index `target` and `golden`.
  std::vector<RowPair> Match(const std::vector<OpRow>& target) const;

 private:
  const std::vector<OpRow>& golden_;
  const MatchOptions& options_;
  std::unique_ptr<std::deque<std::string>> renumbered_;  // the golden keys that are not row names
  std::unique_ptr<GoldenKeyIndex> index_;
};

// op_name_update (§3.1): for a backward row, the call number in call_direction replaced by
// backward_call_order; the name itself for every other row.
std::string BackwardRenumberedName(const OpRow& row);

// The compare keys of each side (§3.1), as MatchRows uses them.
std::vector<std::string> TargetCompareKeys(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                                        const MatchOptions& options);
std::vector<std::string> GoldenCompareKeys(const std::vector<OpRow>& golden, const MatchOptions& options);

// The dtype rule of §3.2.4 on the dtype strings as dumped.
bool DtypesCompatible(std::string_view target_dtype, std::string_view golden_dtype, bool cross_framework);

}  // namespace msprobe::compare
