#include "xlsx/xlsx_cells_internal.h"

#include <algorithm>
#include <cmath>

#include "msprobe/dump/text/python_format.h"
#include "xlsx/xlsx_common_internal.h"

namespace msprobe::compare::internal {
namespace {

constexpr size_t kWidthSampleRows = 1000;
constexpr double kMinColumnWidth = 8;
constexpr double kMaxColumnWidth = 60;

}  // namespace

void AddXlsxText(XlsxRowBatch* batch, uint32_t column, std::string_view text, uint32_t style) {
  if (!text.empty()) {
    batch->Text(column, ExcelText(text), style);
  } else if (style != 0) {
    batch->Blank(column, style);
  }
}

void AddXlsxCell(XlsxRowBatch* batch, uint32_t column, const Cell& cell, uint32_t style) {
  switch (cell.kind()) {
    case Cell::Kind::kFloat:
      if (std::isfinite(cell.number())) {
        batch->Number(column, cell.number(), style);
      } else {
        AddXlsxText(batch, column, PythonFloatRepr(cell.number()), style);
      }
      return;
    case Cell::Kind::kInt: batch->Number(column, static_cast<double>(cell.integer()), style); return;
    case Cell::Kind::kBool: batch->Bool(column, cell.boolean(), style); return;
    case Cell::Kind::kText: AddXlsxText(batch, column, cell.text(), style); return;
  }
}


std::vector<double> ColumnWidths(const std::vector<std::string>& header, size_t rows,
                                 const std::function<std::vector<Cell>(size_t)>& cells_of_row) {
  std::vector<size_t> longest(header.size());
  for (size_t col = 0; col < header.size(); ++col) longest[col] = Utf8Length(header[col]);
  for (size_t row = 0; row < std::min(rows, kWidthSampleRows); ++row) {
    const std::vector<Cell> cells = cells_of_row(row);
    for (size_t col = 0; col < cells.size() && col < longest.size(); ++col) {
      longest[col] = std::max(longest[col], Utf8Length(cells[col].ToPython()));
    }
  }
  std::vector<double> widths;
  for (size_t len : longest) widths.push_back(std::clamp(static_cast<double>(len) + 2, kMinColumnWidth, kMaxColumnWidth));
  return widths;
}

}  // namespace msprobe::compare::internal
