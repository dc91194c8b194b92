// Writes a result table as our xlsx (docs/compatibility.md, "Outputs"): the data sheet as msprobe G3 lays it out
// (first sheet, header in row 1, data from row 2, typed cells) made easier to read — bold frozen
// header, autofilter, column widths, whole rows filled red for "error" and yellow for "warning" —
// and a last sheet "summary" with counts per Result, a link to the first error and a chart
// of the main metric. A table's first_diff_row (-da) is filled orange and named on the summary
// sheet with its stack.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "msprobe/compare/metrics/thresholds.h"
#include "msprobe/compare/output/result_table.h"
#include "msprobe/dump/status.h"

namespace msprobe::compare {

// Writes `table` to `path` atomically and returns {path}. With fewer than `max_rows_per_sheet`
// rows the data goes to one sheet "Sheet1"; otherwise, as G3's save_excel, to sheets part_0,
// part_1, … of ceil(n / ceil(n / max_rows_per_sheet)) rows each. The sheet "summary" comes last.
Result<std::vector<std::string>> WriteXlsx(const std::string& path, const ResultTable& table,
                                           size_t max_rows_per_sheet = kMaxExcelRows);

}  // namespace msprobe::compare
