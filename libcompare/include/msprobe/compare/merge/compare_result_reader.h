// Reads one compare result — our csv or xlsx, or msprobe's G2/G3 xlsx — as msprobe merge_result
// sees it through pandas.read_excel(path, keep_default_na=False) (docs/formats.md §5.3): the first sheet,
// the first row as header, empty cells as "", error cells as NaN, integral numbers as ints, then
// pandas' per-column inference (a column whose every cell is a number or a numeric string becomes
// numbers; a column of booleans or "True"/"False" strings becomes bools; any other column keeps
// each cell's kind).
//
// Our CSV carries no cell types, so its fields are typed as our compare writes them to the xlsx:
// the statistics-mode diff columns ("Max diff" … "NormRelativeErr") are texts, and elsewhere a
// field that parses as a number is a number. Reading our csv and our xlsx of one result therefore
// gives the same cells.
//
// Only the columns the caller selects are kept, and only for the rows whose key it wants, so a
// large result costs little memory; the inference still looks at every row. Kept cells are packed
// (16 bytes each, their texts in one buffer), never one heap string per cell.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/table/cell.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct CompareResultQuery {
  // Given the header, the header positions to keep; the first is the key column (NPU Name). Called
  // at the first data row, so a sheet without data rows never calls it. An error stops the read.
  std::function<Result<std::vector<size_t>>(const std::vector<std::string>& header)> select;
  // Whether to keep the row whose key cell holds the text `key`; rows whose key is not a text
  // (a number, an empty cell) are never kept.
  std::function<bool(std::string_view key)> keep;
};

// One kept cell after the inference: a text (its bytes in CompareResultColumns::text), a float, an
// int or a bool.
struct PackedCell {
  Cell::Kind kind = Cell::Kind::kText;
  uint32_t size = 0;     // kText: length
  uint64_t payload = 0;  // kText: offset; kFloat: the double's bits; kInt: the value; kBool: 1 or 0
};

struct CompareResultColumns {
  std::vector<std::string> header;
  std::vector<size_t> columns;      // what select returned
  std::vector<PackedCell> cells;    // kept rows in sheet order × selected columns, row-major
  std::string text;                 // the bytes of the text cells
  uint64_t data_rows = 0;           // every data row of the sheet

  size_t row_count() const { return columns.empty() ? 0 : cells.size() / columns.size(); }
  const PackedCell& at(size_t row, size_t column) const { return cells[row * columns.size() + column]; }
  // The text of a kText cell (a view of `text`).
  std::string_view TextOf(const PackedCell& cell) const { return std::string_view(text).substr(cell.payload, cell.size); }
  // The cell as a Cell (copies its text).
  Cell ToCell(size_t row, size_t column) const;
};

// Reads `path` (".csv" or ".xlsx").
Result<CompareResultColumns> ReadCompareResult(const std::string& path, const CompareResultQuery& query);

}  // namespace msprobe::compare
