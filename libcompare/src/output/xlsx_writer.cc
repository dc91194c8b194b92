#include "msprobe/compare/output/xlsx_writer.h"

#include <fmt/format.h>

#include <algorithm>

#include "msprobe/compare/xlsx/xlsx_workbook.h"
#include "xlsx/xlsx_cells_internal.h"
#include "output/xlsx_data_sheet_internal.h"
#include "output/xlsx_summary_sheet_internal.h"
#include "xlsx/xlsx_common_internal.h"
#include "xlsx/xlsx_row_spool_internal.h"

namespace msprobe::compare {
namespace {

using internal::CompareStyles;
using internal::PlanSheets;
using internal::XlsxDataSheet;
using internal::XlsxSummarySheet;

using internal::XlsxLiveSheet;
using internal::XlsxRowSpool;
using internal::XlsxSummaryFacts;

// The widths come from the first rows (ColumnWidths): those rows' cells are kept until the end.
constexpr size_t kWidthSampleRows = 1000;

// A spooled row's tag: its verdict, which decides its fill.
uint8_t RowTag(Verdict verdict) { return static_cast<uint8_t>(verdict); }

}  // namespace

struct XlsxResultStream::State {
  State(std::string path, size_t max_rows_per_sheet, std::vector<std::string> header, XlsxRowSpool spool,
        CompareMode mode)
      : path(std::move(path)),
        max_rows_per_sheet(max_rows_per_sheet),
        header(std::move(header)),
        spool(std::move(spool)),
        facts(mode) {}

  std::string path;
  size_t max_rows_per_sheet;
  std::vector<std::string> header;
  XlsxRowSpool spool;
  XlsxSummaryFacts facts;
  std::vector<std::vector<Cell>> width_sample;
  std::unique_ptr<XlsxLiveSheet> live;  // kAsRowsCome: the workbook being written; last, so stopped first
};

XlsxResultStream::XlsxResultStream(std::unique_ptr<State> state) : state_(std::move(state)) {}
XlsxResultStream::XlsxResultStream(XlsxResultStream&&) noexcept = default;
XlsxResultStream& XlsxResultStream::operator=(XlsxResultStream&&) noexcept = default;
XlsxResultStream::~XlsxResultStream() = default;

Result<XlsxResultStream> XlsxResultStream::Open(const std::string& path, const ResultTable& shape,
                                                size_t max_rows_per_sheet, XlsxSheetWriting writing) {
  if (max_rows_per_sheet == 0 || max_rows_per_sheet >= kXlsxMaxRows) {
    return Status::Internal(path, "xlsx sheet size must be between 1 and 1048575 rows");
  }
  std::vector<std::string> header = shape.Header();
  if (header.empty() || header.size() > kXlsxMaxColumns) {
    return Status::InvalidInput(path, fmt::format("{} columns do not fit in a sheet", header.size()));
  }
  MSP_ASSIGN_OR_RETURN(XlsxRowSpool spool, XlsxRowSpool::Create(path));
  auto state = std::make_unique<State>(path, max_rows_per_sheet, std::move(header), std::move(spool), shape.mode);
  state->facts.attribute = !shape.attributions.empty();
  // Written as the rows come only where Commit would leave ZIP64 off too (it decides by the rows).
  if (writing == XlsxSheetWriting::kAsRowsCome && max_rows_per_sheet * state->header.size() <= kXlsxZip64Cells) {
    MSP_ASSIGN_OR_RETURN(state->live, XlsxLiveSheet::Start(path, state->header, &state->spool, max_rows_per_sheet));
  }
  return XlsxResultStream(std::move(state));
}

Status XlsxResultStream::Append(const ResultTable& table) {
  State& s = *state_;
  const size_t offset = s.facts.rows;
  if (table.first_cause_row && !s.facts.first_cause_row) {
    const ResultRow& row = table.rows[*table.first_cause_row];
    s.facts.first_cause_row = offset + *table.first_cause_row;
    s.facts.first_cause_text = row.api + " (" + table.attributions[static_cast<size_t>(row.attribution)].origin + ")";
  }
  for (const ResultRow& row : table.rows) {
    if (s.width_sample.size() < kWidthSampleRows) s.width_sample.push_back(table.Cells(row));
    s.facts.Add(row);
  }
  MSP_RETURN_IF_ERROR(s.spool.Append(table.rows.size(), [&table](size_t row, XlsxRowSpool::RowEncoder* encoder) {
    encoder->Tag(RowTag(table.rows[row].result));
    table.VisitCells(table.rows[row], encoder);
  }));
  if (s.live) s.live->Publish(s.spool.rows());
  return Status::Ok();
}

void XlsxResultStream::MarkFirstDiff(size_t row, std::string name, std::string stack) {
  state_->facts.first_diff_row = row;
  state_->facts.first_diff_name = std::move(name);
  state_->facts.first_diff_stack = std::move(stack);
}

void XlsxResultStream::NoteNotCompared(uint64_t target_rows, uint64_t golden_rows, uint64_t unreadable_tensors) {
  state_->facts.unmatched_target += target_rows;
  state_->facts.unmatched_golden += golden_rows;
  state_->facts.unreadable_tensors += unreadable_tensors;
}

Result<std::vector<std::string>> XlsxResultStream::Commit() && {
  State& s = *state_;
  const size_t rows = s.spool.rows();
  const std::vector<double> widths = internal::ColumnWidths(
      s.header, s.width_sample.size(), [&s](size_t row) { return s.width_sample[row]; });
  const std::vector<XlsxDataSheet> sheets = PlanSheets(rows, s.max_rows_per_sheet);

  std::unique_ptr<XlsxWorkbook> book;
  CompareStyles styles;
  // The one data sheet is written; its widths and autofilter waited for the end.
  if (s.live && internal::FitsOneSheet(rows, s.max_rows_per_sheet)) {
    MSP_ASSIGN_OR_RETURN(book, s.live->Finish());
    styles = s.live->styles();
    s.live->sheet()->SetWidths(widths);
    if (rows > 0) MSP_RETURN_IF_ERROR(s.live->sheet()->AddAutofilter(s.header.size(), rows));
  } else {
    s.live.reset();
    MSP_ASSIGN_OR_RETURN(book, XlsxWorkbook::Create(s.path, (rows + 1) * s.header.size()));
    styles = CompareStyles::AddTo(book.get());
    for (const XlsxDataSheet& data : sheets) {
      MSP_ASSIGN_OR_RETURN(XlsxSheet * sheet, book->AddSheet(data.name));
      sheet->SetWidths(widths);
      MSP_RETURN_IF_ERROR(sheet->WriteHeader(s.header, data.rows));
      MSP_RETURN_IF_ERROR(
          internal::WriteSpooledRows(s.spool, data, 0, data.rows, styles, s.facts.first_diff_row, sheet));
    }
  }
  const XlsxSummarySheet summary(s.facts, sheets, styles);
  MSP_ASSIGN_OR_RETURN(XlsxSheet * sheet, book->AddSheet(XlsxSummarySheet::kName));
  sheet->SetWidths(summary.Widths());
  MSP_RETURN_IF_ERROR(sheet->WriteRows(summary.Rows(), [&summary](uint64_t first, uint64_t end, XlsxRowBatch* batch) {
    summary.Format(first, end, batch);
  }));
  if (const std::optional<XlsxChart> chart = summary.Chart()) MSP_RETURN_IF_ERROR(sheet->InsertChart(*chart));
  MSP_RETURN_IF_ERROR(book->Close());
  return std::vector<std::string>{s.path};
}

std::string FirstDiffStack(const ResultTable& table, size_t row) {
  // Only an API's first row carries its stack.
  const std::string& api = table.rows[row].api;
  while (row > 0 && table.rows[row - 1].api == api && table.rows[row].stack_info == "N/A") --row;
  return table.rows[row].stack_info;
}

Result<std::vector<std::string>> WriteXlsx(const std::string& path, const ResultTable& table,
                                           size_t max_rows_per_sheet) {
  MSP_ASSIGN_OR_RETURN(XlsxResultStream stream, XlsxResultStream::Open(path, table, max_rows_per_sheet));
  MSP_RETURN_IF_ERROR(stream.Append(table));
  if (table.first_diff_row) {
    const size_t row = *table.first_diff_row;
    stream.MarkFirstDiff(row, table.rows[row].target_name, FirstDiffStack(table, row));
  }
  return std::move(stream).Commit();
}

}  // namespace msprobe::compare
