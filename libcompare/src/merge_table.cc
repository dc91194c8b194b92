#include "msprobe/compare/merge_table.h"

#include <bit>
#include <limits>

namespace msprobe::compare {
namespace {

constexpr size_t kMaxPackedText = std::numeric_limits<uint32_t>::max();

}  // namespace

void MergeTable::AddRank(uint64_t rank, const std::vector<std::string>& names,
                         const std::vector<std::vector<Cell>>& values) {
  std::vector<uint32_t> rows;
  rows.reserve(names.size());
  for (const std::string& name : names) {
    auto it = row_of_.find(name);
    if (it == row_of_.end()) {
      row_names_.push_back(name);
      it = row_of_.emplace(row_names_.back(), static_cast<uint32_t>(row_names_.size() - 1)).first;
    }
    rows.push_back(it->second);
  }
  Column& column = columns_.emplace_back();
  column.rank = rank;
  column.layers.resize(indexes_.size());
  for (size_t k = 0; k < indexes_.size(); ++k) {
    Layer& layer = column.layers[k];
    layer.kinds.assign(row_names_.size(), MergeValue::Kind::kMissing);
    layer.payload.assign(row_names_.size(), 0);
    for (size_t i = 0; i < names.size(); ++i) {
      const uint32_t row = rows[i];
      if (layer.kinds[row] != MergeValue::Kind::kMissing) continue;  // a repeated name keeps its first value
      const Cell& cell = values[k][i];
      switch (cell.kind()) {
        case Cell::Kind::kText: {
          const size_t size = std::min(cell.text().size(), kMaxPackedText);
          layer.kinds[row] = MergeValue::Kind::kText;
          layer.payload[row] = (uint64_t{layer.text.size()} << 32) | size;
          layer.text.append(cell.text(), 0, size);
          break;
        }
        case Cell::Kind::kFloat:
          layer.kinds[row] = MergeValue::Kind::kFloat;
          layer.payload[row] = std::bit_cast<uint64_t>(cell.number());
          break;
        case Cell::Kind::kInt:
          layer.kinds[row] = MergeValue::Kind::kInt;
          layer.payload[row] = static_cast<uint64_t>(cell.integer());
          break;
        case Cell::Kind::kBool:
          layer.kinds[row] = MergeValue::Kind::kBool;
          layer.payload[row] = cell.boolean() ? 1 : 0;
          break;
      }
    }
    layer.text.shrink_to_fit();
  }
}

MergeValue MergeTable::Value(size_t index, size_t row, size_t column) const {
  const Layer& layer = columns_[column].layers[index];
  MergeValue v;
  if (row >= layer.kinds.size()) return v;  // a row first seen in a later rank
  v.kind = layer.kinds[row];
  const uint64_t p = layer.payload[row];
  switch (v.kind) {
    case MergeValue::Kind::kMissing: break;
    case MergeValue::Kind::kText: v.text = std::string_view(layer.text).substr(p >> 32, p & 0xffffffffu); break;
    case MergeValue::Kind::kFloat: v.number = std::bit_cast<double>(p); break;
    case MergeValue::Kind::kInt:
    case MergeValue::Kind::kBool: v.integer = static_cast<int64_t>(p); break;
  }
  return v;
}

}  // namespace msprobe::compare
