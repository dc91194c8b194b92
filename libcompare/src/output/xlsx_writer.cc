#include "msprobe/compare/output/xlsx_writer.h"

#include <fmt/format.h>

#include <algorithm>

#include "msprobe/compare/xlsx/xlsx_workbook.h"
#include "output/xlsx_cells_internal.h"
#include "output/xlsx_summary_sheet_internal.h"
#include "xlsx/xlsx_common_internal.h"

namespace msprobe::compare {
namespace {

using internal::CompareStyles;
using internal::XlsxDataSheet;
using internal::XlsxSummarySheet;

// A row's cells, straight from the row's fields (no Cell copies).
class DataRowCells final : public ResultCellVisitor {
 public:
  DataRowCells(XlsxRowBatch* batch, uint32_t style) : batch_(batch), style_(style) {}

  void Text(std::string_view text) override { internal::AddXlsxText(batch_, column_++, text, style_); }
  void Value(const Cell& cell) override { internal::AddXlsxCell(batch_, column_++, cell, style_); }

 private:
  XlsxRowBatch* batch_;
  uint32_t style_;
  uint32_t column_ = 0;
};

uint32_t RowStyle(const ResultTable& table, size_t row, const CompareStyles& styles) {
  if (table.first_diff_row == row) return styles.first_diff;
  switch (table.rows[row].result) {
    case Verdict::kPass: return 0;
    case Verdict::kWarning: return styles.warning;
    case Verdict::kError: return styles.error;
  }
  return 0;
}

// G3 save_excel's slicing (docs/compare.md §1.4).
std::vector<XlsxDataSheet> PlanSheets(size_t rows, size_t max_rows_per_sheet) {
  if (rows < max_rows_per_sheet) return {{"Sheet1", 0, rows}};
  const size_t slices = (rows + max_rows_per_sheet - 1) / max_rows_per_sheet;
  const size_t slice_rows = (rows + slices - 1) / slices;
  std::vector<XlsxDataSheet> sheets;
  for (size_t i = 0; i * slice_rows < rows; ++i) {
    sheets.push_back({"part_" + std::to_string(i), i * slice_rows, std::min(slice_rows, rows - i * slice_rows)});
  }
  return sheets;
}

}  // namespace

Result<std::vector<std::string>> WriteXlsx(const std::string& path, const ResultTable& table,
                                           size_t max_rows_per_sheet) {
  if (max_rows_per_sheet == 0 || max_rows_per_sheet >= kXlsxMaxRows) {
    return Status::Internal(path, "xlsx sheet size must be between 1 and 1048575 rows");
  }
  const std::vector<std::string> header = table.Header();
  if (header.empty() || header.size() > kXlsxMaxColumns) {
    return Status::InvalidInput(path, fmt::format("{} columns do not fit in a sheet", header.size()));
  }
  const std::vector<double> widths =
      internal::ColumnWidths(header, table.rows.size(), [&table](size_t row) { return table.Cells(table.rows[row]); });
  const std::vector<XlsxDataSheet> sheets = PlanSheets(table.rows.size(), max_rows_per_sheet);

  MSP_ASSIGN_OR_RETURN(std::unique_ptr<XlsxWorkbook> book, XlsxWorkbook::Create(path, (table.rows.size() + 1) * header.size()));
  const CompareStyles styles = CompareStyles::AddTo(book.get());
  for (const XlsxDataSheet& data : sheets) {
    MSP_ASSIGN_OR_RETURN(XlsxSheet * sheet, book->AddSheet(data.name));
    sheet->SetWidths(widths);
    MSP_RETURN_IF_ERROR(sheet->WriteHeader(header, data.rows));
    MSP_RETURN_IF_ERROR(sheet->WriteRows(data.rows, [&](uint64_t first, uint64_t end, XlsxRowBatch* batch) {
      for (uint64_t i = first; i < end; ++i) {
        const size_t row = data.first_row + i;
        const uint32_t style = RowStyle(table, row, styles);
        batch->BeginRow(i + 2, style);
        DataRowCells cells(batch, style);
        table.VisitCells(table.rows[row], &cells);
      }
    }));
  }
  const XlsxSummarySheet summary(table, sheets, styles);
  MSP_ASSIGN_OR_RETURN(XlsxSheet * sheet, book->AddSheet(XlsxSummarySheet::kName));
  sheet->SetWidths(summary.Widths());
  MSP_RETURN_IF_ERROR(sheet->WriteRows(summary.Rows(), [&summary](uint64_t first, uint64_t end, XlsxRowBatch* batch) {
    summary.Format(first, end, batch);
  }));
  if (const std::optional<XlsxChart> chart = summary.Chart()) MSP_RETURN_IF_ERROR(sheet->InsertChart(*chart));
  MSP_RETURN_IF_ERROR(book->Close());
  return std::vector<std::string>{path};
}

}  // namespace msprobe::compare
