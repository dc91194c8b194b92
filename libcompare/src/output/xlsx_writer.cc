#include "msprobe/compare/output/xlsx_writer.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cmath>

#include "msprobe/dump/formats/python_format.h"
#include "msprobe/compare/xlsx/xlsx_stream_writer.h"
#include "msprobe/dump/io/atomic_file.h"
#include "xlsx/xlsx_common_internal.h"
#include "output/xlsx_summary_sheet_internal.h"

namespace msprobe::compare {
namespace {

using internal::ExcelText;
using internal::Utf8Length;
using internal::XlsxDataSheet;
using internal::XlsxSummarySheet;

constexpr size_t kWidthSampleRows = 1000;  // widths follow the first rows; enough to see each column's kind
constexpr double kMinColumnWidth = 8;
constexpr double kMaxColumnWidth = 60;
// Each string of a row is counted with room for what JSON (Err_message) and Python (Data_name) add:
// quotes, brackets and separators. Their escapes ("\u0001", "\x01") grow a byte no more than XML's
// does, and never stack with it: their outputs need no XML escape but '&', '<', '>'.
constexpr uint64_t kStringOverheadBound = 16;

std::vector<double> ColumnWidths(const ResultTable& table, const std::vector<std::string>& header) {
  std::vector<size_t> longest(header.size());
  for (size_t col = 0; col < header.size(); ++col) longest[col] = Utf8Length(header[col]);
  const size_t sample = std::min(table.rows.size(), kWidthSampleRows);
  for (size_t row_idx = 0; row_idx < sample; ++row_idx) {
    const std::vector<Cell> cells = table.Cells(table.rows[row_idx]);
    for (size_t col = 0; col < cells.size() && col < longest.size(); ++col) {
      longest[col] = std::max(longest[col], Utf8Length(cells[col].ToPython()));
    }
  }
  std::vector<double> widths;
  for (size_t len : longest) widths.push_back(std::clamp(static_cast<double>(len) + 2, kMinColumnWidth, kMaxColumnWidth));
  return widths;
}

// A row's cells as SpreadsheetML, straight from the row's fields (no Cell copies).
class DataRowXml final : public ResultCellVisitor {
 public:
  DataRowXml(XlsxRowXml* xml, uint32_t style) : xml_(xml), style_(style) {}

  void Text(std::string_view text) override {
    // Always a string cell, never a formula, so texts such as "=1+1" need no defusing here.
    if (!text.empty()) {
      xml_->Text(column_, ExcelText(text), style_);
    } else if (style_ != 0) {
      xml_->Blank(column_, style_);
    }
    ++column_;
  }

  void Value(const Cell& cell) override {
    switch (cell.kind()) {
      case Cell::Kind::kFloat:
        // A cell cannot hold inf or NaN; those keep Python's spelling as text, as in the CSV.
        if (std::isfinite(cell.number())) {
          xml_->Number(column_++, cell.number(), style_);
        } else {
          Text(PythonFloatRepr(cell.number()));
        }
        return;
      case Cell::Kind::kInt: xml_->Number(column_++, static_cast<double>(cell.integer()), style_); return;
      case Cell::Kind::kBool: xml_->Bool(column_++, cell.boolean(), style_); return;
      case Cell::Kind::kText: Text(cell.text()); return;
    }
  }

 private:
  XlsxRowXml* xml_;
  uint32_t style_;
  uint32_t column_ = 0;
};

uint32_t RowStyle(const ResultTable& table, size_t row) {
  if (table.first_diff_row == row) return internal::kStyleFirstDiff;
  switch (table.rows[row].result) {
    case Verdict::kPass: return 0;
    case Verdict::kWarning: return internal::kStyleWarning;
    case Verdict::kError: return internal::kStyleError;
  }
  return 0;
}

// Bytes of every string a row's cells are made of.
uint64_t RowTextBytes(const ResultRow& r) {
  uint64_t sum = 0;
  auto add = [&sum](std::string_view s) { sum += s.size() + kStringOverheadBound; };
  for (const std::string* s : {&r.npu_name, &r.bench_name, &r.npu_dtype, &r.bench_dtype, &r.npu_shape, &r.bench_shape,
                               &r.npu_requires_grad, &r.bench_requires_grad, &r.stack_info,
                               &r.npu_data_name, &r.bench_data_name}) {
    add(*s);
  }
  add(VerdictName(r.result));
  add(AccuracyName(r.accuracy));
  for (const std::string& m : r.err_messages) add(m);
  for (const Cell& c : r.metrics) add(c.text());
  for (const Cell& c : r.npu_stats) add(c.text());
  for (const Cell& c : r.bench_stats) add(c.text());
  return sum;
}

uint64_t SheetXmlBound(const ResultTable& table, const XlsxDataSheet& sheet, size_t columns) {
  return XlsxSheetXmlBound(uint64_t{sheet.rows} + 1, columns, [&] {
    return tbb::parallel_reduce(
        tbb::blocked_range<size_t>(sheet.first_row, sheet.first_row + sheet.rows, 4096), uint64_t{0},
        [&](const tbb::blocked_range<size_t>& range, uint64_t sum) {
          for (size_t i = range.begin(); i < range.end(); ++i) sum += RowTextBytes(table.rows[i]);
          return sum;
        },
        [](uint64_t a, uint64_t b) { return a + b; });
  });
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
  const std::vector<double> widths = ColumnWidths(table, header);
  const std::vector<XlsxDataSheet> sheets = PlanSheets(table.rows.size(), max_rows_per_sheet);
  const XlsxSummarySheet summary(table, sheets);

  std::vector<XlsxSheetPlan> plans;
  for (const XlsxDataSheet& sheet : sheets) {
    XlsxSheetPlan plan;
    plan.name = sheet.name;
    plan.filter_columns = static_cast<uint32_t>(header.size());
    plan.filter_rows = sheet.rows;
    plans.push_back(std::move(plan));
  }
  XlsxSheetPlan summary_plan;
  summary_plan.name = XlsxSummarySheet::kName;
  summary_plan.chart = summary.has_chart();
  plans.push_back(std::move(summary_plan));

  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  XlsxStreamWriter writer([&file](std::string_view bytes) { return file.Write(bytes); }, path);
  MSP_RETURN_IF_ERROR(writer.Begin(plans, internal::CompareCellStyles()));
  for (const XlsxDataSheet& sheet : sheets) {
    XlsxSheetLayout layout;
    layout.name = sheet.name;
    layout.header = header;
    layout.widths = widths;
    layout.rows = sheet.rows;
    layout.xml_bytes_bound = SheetXmlBound(table, sheet, header.size());
    MSP_RETURN_IF_ERROR(writer.WriteSheet(layout, [&](uint64_t first, uint64_t end, XlsxRowXml* xml) {
      for (uint64_t i = first; i < end; ++i) {
        const size_t row = sheet.first_row + i;
        xml->BeginRow(i + 2, RowStyle(table, row));
        DataRowXml cells(xml, RowStyle(table, row));
        table.VisitCells(table.rows[row], &cells);
        xml->EndRow();
      }
    }));
  }
  MSP_RETURN_IF_ERROR(writer.WriteSheet(summary.Layout(), [&summary](uint64_t first, uint64_t end, XlsxRowXml* xml) {
    summary.Format(first, end, xml);
  }));
  MSP_RETURN_IF_ERROR(writer.Finish());
  MSP_RETURN_IF_ERROR(file.Commit());
  return std::vector<std::string>{path};
}

}  // namespace msprobe::compare
