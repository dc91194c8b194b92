#include "msprobe/compare/table/stat_columns.h"

#include <algorithm>

#include "msprobe/dump/util/coding.h"

namespace msprobe::compare {
namespace {

const Cell& StatCell(const ResultRow& row, int column) {
  return column < 4 ? row.target_stats[column] : row.golden_stats[column - 4];
}

}  // namespace

void StatColumns::Add(const ResultTable& table) {
  if (table.layout != ResultLayout::kCompare || table.mode == CompareMode::kMd5) return;
  for (const ResultRow& row : table.rows) {
    for (int c = 0; c < 8; ++c) {
      Column& column = columns_[c];
      switch (StatCell(row, c).kind()) {
        case Cell::Kind::kInt: column.has_int = true; break;
        case Cell::Kind::kFloat: column.has_float = true; break;
        case Cell::Kind::kText:
        case Cell::Kind::kBool: column.other = true; break;
      }
    }
  }
}

void StatColumns::Add(const StatColumns& more) {
  for (int c = 0; c < 8; ++c) {
    columns_[c].other |= more.columns_[c].other;
    columns_[c].has_int |= more.columns_[c].has_int;
    columns_[c].has_float |= more.columns_[c].has_float;
  }
}

bool StatColumns::IntsBecomeFloats(int column) const {
  const Column& c = columns_[column];
  return !c.other && c.has_int && c.has_float;
}

bool StatColumns::AnyIntsBecomeFloats() const {
  for (int c = 0; c < 8; ++c) {
    if (IntsBecomeFloats(c)) return true;
  }
  return false;
}

void PutStatColumns(std::string* dst, const StatColumns& columns) {
  for (const StatColumns::Column& c : columns.columns_) {
    PutBool(dst, c.other);
    PutBool(dst, c.has_int);
    PutBool(dst, c.has_float);
  }
}

bool GetStatColumns(Decoder* in, StatColumns* columns) {
  for (StatColumns::Column& c : columns->columns_) {
    if (!GetBool(in, &c.other) || !GetBool(in, &c.has_int) || !GetBool(in, &c.has_float)) return false;
  }
  return true;
}

void ApplyStatColumnTypes(ResultTable* table) {
  StatColumns columns;
  columns.Add(*table);
  if (!columns.AnyIntsBecomeFloats()) return;
  for (ResultRow& row : table->rows) {
    for (int c = 0; c < 8; ++c) {
      Cell& cell = c < 4 ? row.target_stats[c] : row.golden_stats[c - 4];
      if (columns.IntsBecomeFloats(c) && cell.kind() == Cell::Kind::kInt) {
        cell = Cell::Float(static_cast<double>(cell.integer()));
      }
    }
  }
}

}  // namespace msprobe::compare
