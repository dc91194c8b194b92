#include "consistency/consistency_table_internal.h"

#include <array>
#include <cmath>
#include <memory>

#include "msprobe/compare/output/csv_writer.h"
#include "msprobe/compare/xlsx/xlsx_workbook.h"
#include "xlsx/xlsx_cells_internal.h"

namespace msprobe::compare::internal {
namespace {

constexpr uint32_t kInconsistencyFill = 0xFF0000;  // red, as compare's error rows
constexpr uint32_t kSuspectFill = 0xFFFF00;        // yellow, as its warnings
constexpr std::array<std::string_view, 4> kCheckHeader = {"check", "ran", "values compared", "detail"};

// The summary sheet: counts, the checks and how they ran, the first inconsistency (a link to its row).
Status WriteSummarySheet(XlsxWorkbook* book, const ConsistencyReport& report) {
  const ConsistencyCounts& n = report.counts;
  const std::vector<std::pair<std::string, uint64_t>> counts = {
      {"inconsistencies", n.inconsistencies}, {"suspects", n.suspects}, {"steps", n.steps},
      {"ranks", n.ranks}, {"dump.json files", n.dumps}, {"tensor arguments", n.arguments}};
  const bool any = !report.findings.empty() && report.findings[0].kind == ConsistencyFinding::Kind::kInconsistency;
  const uint64_t rows = counts.size() + 4 + report.checks.size();
  MSP_ASSIGN_OR_RETURN(XlsxSheet * sheet, book->AddSheet("summary"));
  sheet->SetWidths({24, 14, 14, 90});
  return sheet->WriteRows(rows, [&](uint64_t begin, uint64_t end, XlsxRowBatch* batch) {
    for (uint64_t r = begin; r < end; ++r) {
      batch->BeginRow(r + 1);
      if (r < counts.size()) {
        batch->Text(0, counts[r].first);
        batch->Number(1, static_cast<double>(counts[r].second));
      } else if (r == counts.size()) {
        batch->Text(0, "mode");
        batch->Text(1, report.mode);
      } else if (r == counts.size() + 1) {
        batch->Text(0, "first inconsistency");
        if (any) {
          batch->Link(1, report.findings[0].name, "'consistency'!A2");
        } else {
          batch->Text(1, "none");
        }
      } else if (r == counts.size() + 3) {
        for (uint32_t c = 0; c < kCheckHeader.size(); ++c) batch->Text(c, kCheckHeader[c]);
      } else if (r > counts.size() + 3) {
        const ConsistencyCheck& check = report.checks[r - counts.size() - 4];
        batch->Text(0, check.name);
        batch->Text(1, check.ran ? "yes" : "no");
        batch->Number(2, static_cast<double>(check.compared));
        batch->Text(3, check.detail);
      }
    }
  });
}

}  // namespace

std::vector<std::string> ConsistencyHeader() {
  return {"Kind", "Step", "Rank", "API", "Name", "Check", "Group", "Value", "Expected", "Score", "Reason"};
}

std::vector<Cell> ConsistencyCells(const ConsistencyFinding& f) {
  return {Cell::Text(std::string(FindingKindName(f.kind))),
          Cell::Int(f.step),
          Cell::Int(f.rank),
          Cell::Text(f.api),
          Cell::Text(f.name),
          Cell::Text(f.check),
          Cell::Text(f.group),
          Cell::Text(f.value),
          Cell::Text(f.expected),
          f.score ? Cell::Float(std::round(*f.score * 100) / 100) : Cell::Text(""),
          Cell::Text(f.reason)};
}

Status WriteConsistencyCsv(const std::string& path, const std::vector<ConsistencyFinding>& findings) {
  return WriteSmallCsv(path, ConsistencyHeader(), findings.size(), [&](size_t i) { return ConsistencyCells(findings[i]); });
}

Status WriteConsistencyXlsx(const std::string& path, const ConsistencyReport& report) {
  const std::vector<ConsistencyFinding>& findings = report.findings;
  const std::vector<std::string> header = ConsistencyHeader();
  if (findings.size() + 1 >= kXlsxMaxRows) return Status::InvalidInput(path, "more findings than a sheet holds; use the csv");
  MSP_ASSIGN_OR_RETURN(std::unique_ptr<XlsxWorkbook> book,
                       XlsxWorkbook::Create(path, (findings.size() + 1) * header.size() + 64));
  const uint32_t inconsistency = book->AddStyle({.fill_rgb = kInconsistencyFill});
  const uint32_t suspect = book->AddStyle({.fill_rgb = kSuspectFill});
  MSP_ASSIGN_OR_RETURN(XlsxSheet * sheet, book->AddSheet("consistency"));
  sheet->SetWidths(ColumnWidths(header, findings.size(), [&](size_t row) { return ConsistencyCells(findings[row]); }));
  MSP_RETURN_IF_ERROR(sheet->WriteHeader(header, findings.size()));
  MSP_RETURN_IF_ERROR(sheet->WriteRows(findings.size(), [&](uint64_t begin, uint64_t end, XlsxRowBatch* batch) {
    for (uint64_t r = begin; r < end; ++r) {
      const uint32_t style = findings[r].kind == ConsistencyFinding::Kind::kInconsistency ? inconsistency : suspect;
      batch->BeginRow(r + 2, style);
      const std::vector<Cell> cells = ConsistencyCells(findings[r]);
      for (size_t col = 0; col < cells.size(); ++col) AddXlsxCell(batch, static_cast<uint32_t>(col), cells[col], style);
    }
  }));
  MSP_RETURN_IF_ERROR(WriteSummarySheet(book.get(), report));
  return book->Close();
}

}  // namespace msprobe::compare::internal
