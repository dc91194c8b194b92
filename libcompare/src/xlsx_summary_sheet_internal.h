// The xlsx writer's summary sheet (xlsx_summary_sheet.cc) and what it shares with xlsx_writer.cc.
#pragma once

#include <xlsxwriter.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/compare/cell.h"
#include "msprobe/compare/result_table.h"
#include "msprobe/dump/status.h"
#include "xlsx_common_internal.h"

namespace msprobe::compare::internal {

// One data sheet: rows [first_row, first_row + rows) of the table.
struct XlsxDataSheet {
  std::string name;
  size_t first_row = 0;
  size_t rows = 0;
};

// The chart value of a main-metric cell: numbers as they are, "12.3%" texts as 0.123 and numeric
// texts parsed; nullopt for texts such as "N/A", "Nan", "unsupported" and for inf/NaN.
std::optional<double> MetricValue(const Cell& cell);

// Adds the sheet "summary" after the data sheets. `bold` is the header format.
Status AddSummarySheet(lxw_workbook* workbook, const std::string& path, const ResultTable& table,
                       const std::vector<XlsxDataSheet>& sheets, lxw_format* bold);

}  // namespace msprobe::compare::internal
