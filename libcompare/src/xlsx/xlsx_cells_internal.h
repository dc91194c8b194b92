// A result cell as a workbook cell, the one rule every table we write as xlsx follows: numbers as
// numbers, inf and NaN (which a cell cannot hold) as Python's spelling in text, as in the csv.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/table/cell.h"
#include "msprobe/compare/xlsx/xlsx_row_batch.h"

namespace msprobe::compare::internal {

// Always a string cell, never a formula, so texts such as "=1+1" need no defusing; an empty text
// is a blank cell keeping the row's style.
void AddXlsxText(XlsxRowBatch* batch, uint32_t column, std::string_view text, uint32_t style);
void AddXlsxCell(XlsxRowBatch* batch, uint32_t column, const Cell& cell, uint32_t style);

// Column widths in characters from the header and the first rows' cells (enough to see each
// column's kind): the longest rendering + 2, between 8 and 60.
std::vector<double> ColumnWidths(const std::vector<std::string>& header, size_t rows,
                                 const std::function<std::vector<Cell>(size_t)>& cells_of_row);

}  // namespace msprobe::compare::internal
