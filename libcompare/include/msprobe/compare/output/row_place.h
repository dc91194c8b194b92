// Where a row of a pair's result table is, as a person opening the file finds it (docs/compare.md
// §1.5): the file holding it and the row a spreadsheet shows there, the header being row 1. Every
// `row` of summary.json and of the gates' lines is this; the code counts rows from 0 in the table.
#pragma once

#include <cstddef>
#include <string>

#include "msprobe/compare/metrics/thresholds.h"
#include "msprobe/compare/output/compare_report.h"

namespace msprobe::compare {

struct RowPlace {
  std::string file;   // the csv (its part past 1,000,000 rows), else the xlsx, else the pair's first output
  size_t row = 0;     // data row i of the file (or of its sheet) is row i + 2
  std::string sheet;  // the xlsx's data sheet holding the row ("Sheet1", "part_1"); "" for other files
};

// Table row `index` (0-based) of `pair`, located in the files the pair wrote: its csv (split into
// parts of `max_csv_rows`), else its xlsx (sheets as WriteXlsx slices them, `max_sheet_rows`), else its
// first output (-da's json alone: the row the csv would have).
RowPlace LocateRow(const PairResult& pair, size_t index, size_t max_csv_rows = kMaxRowsPerCsvFile,
                   size_t max_sheet_rows = kMaxExcelRows);

// "FILE row N" (with the sheet for an xlsx: "FILE sheet part_1 row N").
std::string RowPlaceText(const RowPlace& place);
// A row of `pair` as the gates name it: "FILE row N: NPU_NAME: RESULT: ERR_MESSAGE".
std::string RowRefText(const PairResult& pair, const RowRef& ref);

}  // namespace msprobe::compare
