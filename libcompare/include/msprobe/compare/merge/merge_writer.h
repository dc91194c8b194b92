// Writes the merged workbook multi_ranks_compare_merge_{ts}.xlsx (docs/formats.md §5.6): one sheet per
// compare index in config order, named after it, header "NPU Name | rank0 | rank1 …", one row per
// NPU name. A sheet that would reach 1,048,500 rows is split into equal slices "{index}_part_{i}"
// (the index cut so the name fits Excel's 31 characters). Cells are typed as msprobe writes them:
// texts as strings, floats and ints as numbers (±inf as the texts "inf"/"-inf", NaN blank, as
// pandas does), bools as TRUE/FALSE, a rank without the row as an empty cell.
//
// Every text is written as an inline string (xlsx_workbook.h), never a formula, so a value such as
// "=HYPERLINK(…)" or "+cmd" reaches the file as plain text; msprobe aborts on such values, we write
// them harmlessly and go on. Rows are formatted in parallel chunks and written by libxlsxwriter in
// its constant_memory mode, so memory does not grow with the sheet.
//
// Ours beyond msprobe: the pandas-style header (bold, centred, thin border) frozen, column widths,
// and outlier highlighting. Per sheet and row, the numeric cells (numbers, and texts that parse as
// a number, a trailing '%' allowed) of at least 3 ranks give the median m of their absolute values;
// a cell whose absolute value v has v > factor·m or v < m/factor is filled light red with dark red
// text. With m = 0 every non-zero value stands out. Booleans, other texts and empty cells are
// never highlighted and do not count.
#pragma once

#include <string>

#include "msprobe/compare/merge/merge_table.h"
#include "msprobe/compare/metrics/thresholds.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

// Writes `table` to `path` through a temporary name renamed into place when complete.
Status WriteMergeWorkbook(const std::string& path, const MergeTable& table, double highlight_factor,
                          size_t max_rows_per_sheet = kMaxExcelRows);

// Whether `value` stands out from the row's median magnitude `median` by more than `factor`.
bool IsMergeOutlier(double value, double median, double factor);

}  // namespace msprobe::compare
