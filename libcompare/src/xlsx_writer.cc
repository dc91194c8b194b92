#include "msprobe/compare/xlsx_writer.h"

#include <xlsxwriter.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "msprobe/compare/python_format.h"
#include "msprobe/dump/atomic_file.h"
#include "xlsx_common_internal.h"
#include "xlsx_summary_sheet_internal.h"

namespace msprobe::compare {
namespace {

using internal::XlsxDataSheet;
using internal::ExcelText;
using internal::Utf8Length;
using internal::WorkbookFree;
using internal::XlsxStatus;

constexpr size_t kWidthSampleRows = 1000;  // widths follow the first rows; enough to see each column's kind
constexpr double kMinColumnWidth = 8;
constexpr double kMaxColumnWidth = 60;
constexpr size_t kZip64Rows = 500'000;        // past this a sheet's XML may exceed 4 GB
constexpr lxw_color_t kErrorFill = 0xFF0000;   // written as rgb="FFFF0000"
constexpr lxw_color_t kWarningFill = 0xFFFF00;
constexpr lxw_color_t kFirstDiffFill = 0xFFA500;  // orange: the row -da named as the first diff

struct Formats {
  lxw_format* header = nullptr;
  lxw_format* error = nullptr;
  lxw_format* warning = nullptr;
  lxw_format* first_diff = nullptr;
};

std::vector<double> ColumnWidths(const ResultTable& table, const std::vector<std::string>& header) {
  std::vector<size_t> longest(header.size());
  for (size_t col = 0; col < header.size(); ++col) longest[col] = Utf8Length(header[col]);
  const size_t sample = std::min(table.rows.size(), kWidthSampleRows);
  for (size_t row_idx = 0; row_idx < sample; ++row_idx) {
    const std::vector<Cell> cells = ResultCells(table.rows[row_idx], table.mode, table.with_stack);
    for (size_t col = 0; col < cells.size() && col < longest.size(); ++col) {
      longest[col] = std::max(longest[col], Utf8Length(cells[col].ToPython()));
    }
  }
  std::vector<double> widths;
  for (size_t len : longest) widths.push_back(std::clamp(static_cast<double>(len) + 2, kMinColumnWidth, kMaxColumnWidth));
  return widths;
}

lxw_error WriteCell(lxw_worksheet* ws, lxw_row_t row, lxw_col_t col, const Cell& cell, lxw_format* format) {
  switch (cell.kind()) {
    case Cell::Kind::kFloat:
      // A cell cannot hold inf or NaN; those keep Python's spelling as text, as in the CSV.
      if (std::isfinite(cell.number())) return worksheet_write_number(ws, row, col, cell.number(), format);
      return worksheet_write_string(ws, row, col, PythonFloatRepr(cell.number()).c_str(), format);
    case Cell::Kind::kInt: return worksheet_write_number(ws, row, col, static_cast<double>(cell.integer()), format);
    case Cell::Kind::kBool: return worksheet_write_boolean(ws, row, col, cell.boolean() ? 1 : 0, format);
    case Cell::Kind::kText: break;
  }
  // Always a string cell, never a formula, so texts such as "=1+1" need no defusing here.
  const std::string text(ExcelText(cell.text()));
  return worksheet_write_string(ws, row, col, text.c_str(), format);
}

Status WriteDataSheet(lxw_workbook* wb, const std::string& path, const ResultTable& table,
                      const XlsxDataSheet& sheet, const std::vector<std::string>& header,
                      const std::vector<double>& widths, const Formats& formats) {
  lxw_worksheet* ws = workbook_add_worksheet(wb, sheet.name.c_str());
  if (!ws) return Status::IOError(path, "cannot add sheet " + sheet.name);
  const lxw_col_t last_col = static_cast<lxw_col_t>(header.size() - 1);
  for (lxw_col_t col = 0; col <= last_col; ++col) {
    const lxw_error err = worksheet_set_column(ws, col, col, widths[col], nullptr);
    if (err) return XlsxStatus(path, err);
  }
  worksheet_freeze_panes(ws, 1, 0);
  if (const lxw_error err = worksheet_autofilter(ws, 0, 0, static_cast<lxw_row_t>(sheet.rows), last_col)) {
    return XlsxStatus(path, err);
  }
  for (lxw_col_t col = 0; col <= last_col; ++col) {
    if (const lxw_error err = worksheet_write_string(ws, 0, col, header[col].c_str(), formats.header)) {
      return XlsxStatus(path, err);
    }
  }
  for (size_t i = 0; i < sheet.rows; ++i) {
    const ResultRow& row = table.rows[sheet.first_row + i];
    const lxw_row_t xl_row = static_cast<lxw_row_t>(i + 1);
    lxw_format* format = row.result == "error" ? formats.error : row.result == "warning" ? formats.warning : nullptr;
    if (table.first_diff_row == sheet.first_row + i) format = formats.first_diff;
    if (format) {
      // The row format fills the cells past the table too, so the whole row reads as one mark.
      if (const lxw_error err = worksheet_set_row(ws, xl_row, LXW_DEF_ROW_HEIGHT, format)) return XlsxStatus(path, err);
    }
    const std::vector<Cell> cells = ResultCells(row, table.mode, table.with_stack);
    for (size_t col = 0; col < cells.size(); ++col) {
      if (const lxw_error err = WriteCell(ws, xl_row, static_cast<lxw_col_t>(col), cells[col], format)) {
        return XlsxStatus(path, err);
      }
    }
  }
  return Status::Ok();
}

// G3 save_excel's slicing (compare.md §1.4).
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
  if (max_rows_per_sheet == 0 || max_rows_per_sheet >= LXW_ROW_MAX) {
    return Status::Internal(path, "xlsx sheet size must be between 1 and 1048575 rows");
  }
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  // Constant memory streams each row to a temporary file, so a million-row table does not have to
  // fit in memory; rows are written in order and every cell carries its row's fill.
  lxw_workbook_options options{};
  options.constant_memory = LXW_TRUE;
  options.use_zip64 = table.rows.size() > kZip64Rows ? LXW_TRUE : LXW_FALSE;
  std::unique_ptr<lxw_workbook, WorkbookFree> wb(workbook_new_opt(file.temp_path().c_str(), &options));
  if (!wb) return Status::IOError(path, "cannot create xlsx workbook");

  Formats formats;
  formats.header = workbook_add_format(wb.get());
  formats.error = workbook_add_format(wb.get());
  formats.warning = workbook_add_format(wb.get());
  formats.first_diff = workbook_add_format(wb.get());
  if (!formats.header || !formats.error || !formats.warning || !formats.first_diff) {
    return XlsxStatus(path, LXW_ERROR_MEMORY_MALLOC_FAILED);
  }
  format_set_bold(formats.header);
  format_set_bg_color(formats.error, kErrorFill);
  format_set_bg_color(formats.warning, kWarningFill);
  format_set_bg_color(formats.first_diff, kFirstDiffFill);

  const std::vector<std::string> header = table.Header();
  const std::vector<double> widths = ColumnWidths(table, header);
  const std::vector<XlsxDataSheet> sheets = PlanSheets(table.rows.size(), max_rows_per_sheet);
  for (const XlsxDataSheet& sheet : sheets) {
    MSP_RETURN_IF_ERROR(WriteDataSheet(wb.get(), path, table, sheet, header, widths, formats));
  }
  MSP_RETURN_IF_ERROR(internal::AddSummarySheet(wb.get(), path, table, sheets, formats.header));

  if (const lxw_error err = workbook_close(wb.release())) return XlsxStatus(path, err);
  MSP_RETURN_IF_ERROR(file.Commit());
  return std::vector<std::string>{path};
}

}  // namespace msprobe::compare
