#include "recompute/recompute_table_internal.h"

#include <algorithm>
#include <array>
#include <memory>

#include "msprobe/compare/output/csv_writer.h"
#include "msprobe/compare/xlsx/xlsx_workbook.h"
#include "msprobe/ops/reference/reference.h"
#include "xlsx/xlsx_cells_internal.h"

namespace msprobe::compare {
namespace {

using ops::SelfVerdict;

constexpr uint32_t kExceedsFill = 0xFF0000;  // red, as compare's error rows

using VerdictCounts = std::array<uint64_t, ops::kSelfVerdicts>;

VerdictCounts Counts(const std::vector<ops::CallCheck>& calls) {
  VerdictCounts n{};
  for (const ops::CallCheck& c : calls) ++n[static_cast<size_t>(c.check.verdict)];
  return n;
}

// One row per verdict, in the enum's order, then the calls, a blank row and the first exceeding call.
Status WriteSummarySheet(XlsxWorkbook* book, const std::vector<ops::CallCheck>& calls) {
  const VerdictCounts n = Counts(calls);
  const auto first = std::find_if(calls.begin(), calls.end(),
                                  [](const ops::CallCheck& c) { return c.check.verdict == SelfVerdict::kExceeds; });
  MSP_ASSIGN_OR_RETURN(XlsxSheet * sheet, book->AddSheet("summary"));
  sheet->SetWidths({22, 60});
  constexpr uint64_t kCallsRow = ops::kSelfVerdicts, kFirstRow = kCallsRow + 2;
  return sheet->WriteRows(kFirstRow + 1, [&](uint64_t begin, uint64_t end, XlsxRowBatch* batch) {
    for (uint64_t r = begin; r < end; ++r) {
      batch->BeginRow(r + 1);
      if (r < kCallsRow) {
        batch->Text(0, ops::SelfVerdictName(static_cast<SelfVerdict>(r)));
        batch->Number(1, static_cast<double>(n[r]));
      } else if (r == kCallsRow) {
        batch->Text(0, "calls");
        batch->Number(1, static_cast<double>(calls.size()));
      } else if (r == kFirstRow) {
        batch->Text(0, "first exceeding");
        if (first == calls.end()) {
          batch->Text(1, "none");
        } else {
          batch->Link(1, first->key, "'Sheet1'!A" + std::to_string(first - calls.begin() + 2));
        }
      }
    }
  });
}

}  // namespace

std::vector<std::string> RecomputeHeader() {
  return {"API Name", "Op",     "Dtype",     "Output",  "Supported", "MaxAbsErr",
          "MaxRelativeErr", "Cosine", "AccumulationLength", "Tolerance", "Verdict", "Reason"};
}

std::vector<Cell> RecomputeCells(const ops::CallCheck& call) {
  const ops::SelfCheck& c = call.check;
  const bool measured = c.Measured();
  auto number = [measured](double v) { return measured ? Cell::Float(v) : Cell::NA(); };
  return {Cell::Text(call.key),
          Cell::Text(std::string(ops::ApiName(call.key))),
          measured ? Cell::Text(c.dtype) : Cell::NA(),
          measured ? Cell::Text(c.output) : Cell::NA(),
          Cell::Bool(c.verdict != SelfVerdict::kUnsupported),  // an unreadable call's op has a reference
          number(c.error.max_abs),
          number(c.error.max_rel),
          number(c.error.cosine),
          measured ? Cell::Int(c.tolerance.accumulation) : Cell::NA(),
          number(c.tolerance.rel),
          Cell::Text(std::string(ops::SelfVerdictName(c.verdict))),
          Cell::Text(c.reason)};
}

Status WriteRecomputeCsv(const std::string& path, const std::vector<ops::CallCheck>& calls) {
  return WriteSmallCsv(path, RecomputeHeader(), calls.size(), [&](size_t i) { return RecomputeCells(calls[i]); });
}

Status WriteRecomputeXlsx(const std::string& path, const std::vector<ops::CallCheck>& calls) {
  const std::vector<std::string> header = RecomputeHeader();
  if (calls.size() + 1 >= kXlsxMaxRows) {
    return Status::InvalidInput(path, "more API calls than a sheet holds; use the csv");
  }
  MSP_ASSIGN_OR_RETURN(std::unique_ptr<XlsxWorkbook> book,
                       XlsxWorkbook::Create(path, (calls.size() + 1) * header.size() + 12));
  const uint32_t exceeds = book->AddStyle({.fill_rgb = kExceedsFill});
  MSP_ASSIGN_OR_RETURN(XlsxSheet * sheet, book->AddSheet("Sheet1"));
  sheet->SetWidths(internal::ColumnWidths(header, calls.size(), [&calls](size_t row) { return RecomputeCells(calls[row]); }));
  MSP_RETURN_IF_ERROR(sheet->WriteHeader(header, calls.size()));
  MSP_RETURN_IF_ERROR(sheet->WriteRows(calls.size(), [&](uint64_t begin, uint64_t end, XlsxRowBatch* batch) {
    for (uint64_t r = begin; r < end; ++r) {
      const uint32_t style = calls[r].check.verdict == SelfVerdict::kExceeds ? exceeds : 0;
      batch->BeginRow(r + 2, style);
      const std::vector<Cell> cells = RecomputeCells(calls[r]);
      for (size_t col = 0; col < cells.size(); ++col) {
        internal::AddXlsxCell(batch, static_cast<uint32_t>(col), cells[col], style);
      }
    }
  }));
  MSP_RETURN_IF_ERROR(WriteSummarySheet(book.get(), calls));
  return book->Close();
}

}  // namespace msprobe::compare
