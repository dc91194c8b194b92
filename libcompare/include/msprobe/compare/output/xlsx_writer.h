// Writes a result table as our xlsx (docs/compatibility.md, "Outputs"): the data sheet as msprobe G3 lays it out
// (first sheet, header in row 1, data from row 2, typed cells) made easier to read — bold frozen
// header, autofilter, column widths, whole rows filled red for "error" and yellow for "warning" —
// and a last sheet "summary" with counts per Result, a link to the first error and a chart
// of the main metric. A table's first_diff_row (-da) is filled orange and named on the summary
// sheet with its stack.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "msprobe/compare/metrics/thresholds.h"
#include "msprobe/compare/table/result_table.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

// Writes `table` to `path` atomically and returns {path}. With fewer than `max_rows_per_sheet`
// rows the data goes to one sheet "Sheet1"; otherwise, as G3's save_excel, to sheets part_0,
// part_1, … of ceil(n / ceil(n / max_rows_per_sheet)) rows each. The sheet "summary" comes last.
Result<std::vector<std::string>> WriteXlsx(const std::string& path, const ResultTable& table,
                                           size_t max_rows_per_sheet = kMaxExcelRows);

// When a streamed workbook's data rows are written: by Commit, once the row count that decides the
// sheets and -da's first diff are known; or, when they are final as they come (a streamed compare
// without -da), as they are appended, on a thread of their own, into one sheet "Sheet1" (written
// again by Commit from the spool should they pass a sheet's size; docs/compare.md §6.2).
enum class XlsxSheetWriting { kAtCommit, kAsRowsCome };

// WriteXlsx for a table that comes in pieces (a streamed compare, or -da's tables kept until the
// analysis across ranks): the rows of each Append, formatted at once and kept in a temporary file
// beside `path` (memory holds a few bytes per row), and the workbook finished by Commit.
class XlsxResultStream {
 public:
  // `shape`: a table with the columns, mode and layout of the rows to come (its rows are not read).
  static Result<XlsxResultStream> Open(const std::string& path, const ResultTable& shape,
                                       size_t max_rows_per_sheet = kMaxExcelRows,
                                       XlsxSheetWriting writing = XlsxSheetWriting::kAtCommit);
  XlsxResultStream(XlsxResultStream&&) noexcept;
  XlsxResultStream& operator=(XlsxResultStream&&) noexcept;
  ~XlsxResultStream();

  // The next rows; a table's first_cause_row (--attribute) is named on the summary sheet.
  Status Append(const ResultTable& table);
  // -da (kAtCommit): row `row` (of all appended) is filled orange and named, with its API's stack, on
  // the summary.
  void MarkFirstDiff(size_t row, std::string name, std::string stack);
  // The rows not compared that no appended row shows, for the summary sheet: target rows -fm's queue
  // never reached, golden rows msprobe drops, tensors that could not be read.
  void NoteNotCompared(uint64_t target_rows, uint64_t golden_rows, uint64_t unreadable_tensors);
  Result<std::vector<std::string>> Commit() &&;

 private:
  struct State;
  explicit XlsxResultStream(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// The stack of row `row`'s API as the summary names it: its first row's NPU_Stack_Info.
std::string FirstDiffStack(const ResultTable& table, size_t row);

}  // namespace msprobe::compare
