// The merged values of msprobe merge_result (docs/formats.md §5.5): one row per NPU name, one column per
// rank, one layer per compare index. Rows come in first-appearance order over the ranks in
// ascending order — the lowest rank's names in its order, then each later rank's new names in its
// order — which is what pandas < 2.2's outer merge gives (msprobe's own sample output confirms it:
// Distributed.all_reduce rows precede Distributed.all_gather ones, which sorting would swap).
// Cells are packed (9 bytes plus their text) so 64 ranks × 100,000 rows × several indexes fit in a
// few hundred MB.
#pragma once

#include <bit>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "msprobe/compare/table/cell.h"

namespace msprobe::compare {

// One merged value, viewing the table's storage.
struct MergeValue {
  enum class Kind : uint8_t { kMissing, kText, kFloat, kInt, kBool };
  Kind kind = Kind::kMissing;  // kMissing: the rank has no such row (an empty cell)
  double number = 0;           // kFloat
  int64_t integer = 0;         // kInt; kBool 1 or 0
  std::string_view text;       // kText
};

class MergeTable {
 public:
  explicit MergeTable(std::vector<std::string> indexes) : indexes_(std::move(indexes)) {}

  // Adds the column of `rank`: names[i] holds values[k][i] for indexes()[k]. Names new to the table
  // become rows at the end, in the order given; a name repeated within `names` keeps its first
  // value. The views are copied; a kMissing value leaves the cell empty.
  void AddRank(uint64_t rank, const std::vector<std::string_view>& names,
               const std::vector<std::vector<MergeValue>>& values);
  // The same with owned names and cells.
  void AddRank(uint64_t rank, const std::vector<std::string>& names, const std::vector<std::vector<Cell>>& values);

  const std::vector<std::string>& indexes() const { return indexes_; }
  size_t row_count() const { return row_names_.size(); }
  size_t rank_count() const { return columns_.size(); }
  const std::string& row_name(size_t row) const { return row_names_[row]; }
  uint64_t rank(size_t column) const { return columns_[column].rank; }
  MergeValue Value(size_t index, size_t row, size_t column) const;

 private:
  struct Layer {  // one (rank, index): cells by row id
    std::vector<MergeValue::Kind> kinds;
    std::vector<uint64_t> payload;  // double bits, int64, or text offset << 32 | length
    std::string text;
  };
  struct Column {
    uint64_t rank = 0;
    std::vector<Layer> layers;  // one per index
  };

  // The row of `name`, appended when new. `guess` is tried first: ranks usually list the same
  // names in the same order, so the row after the previous one is most often right.
  uint32_t RowOf(std::string_view name, size_t guess);

  std::vector<std::string> indexes_;
  std::deque<std::string> row_names_;  // a deque keeps the map's views valid as it grows
  std::unordered_map<std::string_view, uint32_t> row_of_;
  std::vector<Column> columns_;
};

// Inline: the writer asks for every cell of every sheet.
inline MergeValue MergeTable::Value(size_t index, size_t row, size_t column) const {
  const Layer& layer = columns_[column].layers[index];
  MergeValue v;
  if (row >= layer.kinds.size()) return v;  // a row first seen in a later rank
  v.kind = layer.kinds[row];
  const uint64_t p = layer.payload[row];
  switch (v.kind) {
    case MergeValue::Kind::kMissing: break;
    case MergeValue::Kind::kText: v.text = std::string_view(layer.text.data() + (p >> 32), p & 0xffffffffu); break;
    case MergeValue::Kind::kFloat: v.number = std::bit_cast<double>(p); break;
    case MergeValue::Kind::kInt:
    case MergeValue::Kind::kBool: v.integer = static_cast<int64_t>(p); break;
  }
  return v;
}

}  // namespace msprobe::compare
