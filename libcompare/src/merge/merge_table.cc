#include "msprobe/compare/merge/merge_table.h"

#include <bit>
#include <limits>

namespace msprobe::compare {
namespace {

constexpr size_t kMaxPackedText = std::numeric_limits<uint32_t>::max();

// A view of `cell` (its text stays in `cell`).
MergeValue ViewOf(const Cell& cell) {
  MergeValue v;
  switch (cell.kind()) {
    case Cell::Kind::kText:
      v.kind = MergeValue::Kind::kText;
      v.text = cell.text();
      break;
    case Cell::Kind::kFloat:
      v.kind = MergeValue::Kind::kFloat;
      v.number = cell.number();
      break;
    case Cell::Kind::kInt:
      v.kind = MergeValue::Kind::kInt;
      v.integer = cell.integer();
      break;
    case Cell::Kind::kBool:
      v.kind = MergeValue::Kind::kBool;
      v.integer = cell.boolean() ? 1 : 0;
      break;
  }
  return v;
}

}  // namespace

uint32_t MergeTable::RowOf(std::string_view name, size_t guess) {
  if (guess < row_names_.size() && row_names_[guess] == name) return static_cast<uint32_t>(guess);
  auto it = row_of_.find(name);
  if (it == row_of_.end()) {
    row_names_.emplace_back(name);
    it = row_of_.emplace(row_names_.back(), static_cast<uint32_t>(row_names_.size() - 1)).first;
  }
  return it->second;
}

void MergeTable::AddRank(uint64_t rank, const std::vector<std::string_view>& names,
                         const std::vector<std::vector<MergeValue>>& values) {
  if (row_of_.empty()) row_of_.reserve(names.size());
  std::vector<uint32_t> rows;
  rows.reserve(names.size());
  size_t guess = 0;
  for (std::string_view name : names) {
    const uint32_t row = RowOf(name, guess);
    rows.push_back(row);
    guess = size_t{row} + 1;
  }
  Column& column = columns_.emplace_back();
  column.rank = rank;
  column.layers.resize(indexes_.size());
  for (size_t k = 0; k < indexes_.size(); ++k) {
    Layer& layer = column.layers[k];
    layer.kinds.assign(row_names_.size(), MergeValue::Kind::kMissing);
    layer.payload.assign(row_names_.size(), 0);
    size_t text_bytes = 0;
    for (const MergeValue& v : values[k]) {
      if (v.kind == MergeValue::Kind::kText) text_bytes += std::min(v.text.size(), kMaxPackedText);
    }
    layer.text.reserve(text_bytes);
    for (size_t i = 0; i < names.size(); ++i) {
      const uint32_t row = rows[i];
      if (layer.kinds[row] != MergeValue::Kind::kMissing) continue;  // a repeated name keeps its first value
      const MergeValue& v = values[k][i];
      layer.kinds[row] = v.kind;
      switch (v.kind) {
        case MergeValue::Kind::kMissing: break;
        case MergeValue::Kind::kText: {
          const size_t size = std::min(v.text.size(), kMaxPackedText);
          layer.payload[row] = (uint64_t{layer.text.size()} << 32) | size;
          layer.text.append(v.text.data(), size);
          break;
        }
        case MergeValue::Kind::kFloat: layer.payload[row] = std::bit_cast<uint64_t>(v.number); break;
        case MergeValue::Kind::kInt:
        case MergeValue::Kind::kBool: layer.payload[row] = static_cast<uint64_t>(v.integer); break;
      }
    }
  }
}

void MergeTable::AddRank(uint64_t rank, const std::vector<std::string>& names,
                         const std::vector<std::vector<Cell>>& values) {
  const std::vector<std::string_view> name_views(names.begin(), names.end());
  std::vector<std::vector<MergeValue>> value_views(values.size());
  for (size_t k = 0; k < values.size(); ++k) {
    value_views[k].reserve(values[k].size());
    for (const Cell& cell : values[k]) value_views[k].push_back(ViewOf(cell));
  }
  AddRank(rank, name_views, value_views);
}

}  // namespace msprobe::compare
