// Writes a result table as msprobe G3's CSV, byte for byte what pandas to_csv writes there
// (docs/compare.md §1.4, §4.1): Python str() of each cell, QUOTE_MINIMAL, "\n" line ends, no BOM.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "msprobe/compare/metrics/thresholds.h"
#include "msprobe/compare/table/cell.h"
#include "msprobe/compare/table/rendered_rows.h"
#include "msprobe/compare/table/result_table.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

// Writes `table` to `path`, or, when it has more than `max_rows_per_file` rows, to
// "<stem>_part_1<ext>", "<stem>_part_2<ext>", … (each with the header; chunks of exactly
// max_rows_per_file rows, as G3 slices). Each file is written atomically, and when any file fails
// the ones already in place are removed, so a failure never leaves a partial result behind.
// Returns the paths written, in order.
Result<std::vector<std::string>> WriteCsv(const std::string& path, const ResultTable& table,
                                          size_t max_rows_per_file = kMaxRowsPerCsvFile);

// WriteCsv for a table that comes in pieces (a streamed compare): the header, then the rows of each
// Append in order, split into parts as WriteCsv splits. Nothing appears under a final name before
// Commit; a stream dropped uncommitted leaves nothing.
class CsvResultStream {
 public:
  static Result<CsvResultStream> Open(const std::string& path, const std::vector<std::string>& header,
                                      size_t max_rows_per_file = kMaxRowsPerCsvFile);
  Status Append(const ResultTable& table);
  // The table's rows rendered, appended to `into`; AppendRendered appends them as Append appends the
  // table's (docs/distributed.md §3.1).
  static void Render(const ResultTable& table, RenderedRows* into);
  Status AppendRendered(const RenderedRows& rows);
  // The paths written, in order.
  Result<std::vector<std::string>> Commit() &&;

 private:
  CsvResultStream(std::string path, size_t max_rows_per_file) : path_(std::move(path)), max_rows_per_file_(max_rows_per_file) {}
  Status NextFile();
  // `rows` more rows: write(begin, end) writes each run of them that fits the current file.
  Status InFiles(size_t rows, const std::function<Status(size_t begin, size_t end)>& write);

  std::string path_;
  size_t max_rows_per_file_;
  std::string header_line_;
  std::vector<AtomicFile> files_;
  size_t rows_in_file_ = 0;
};

// One CSV field as G3 renders the cell: floats as repr() with ±inf as " inf"/" -inf" and NaN as
// the empty field (pandas' na_rep), ints, True/False, texts as they are but defused when they
// could run as a spreadsheet formula, then quoted when they hold ',', '"', '\r' or '\n'.
std::string CsvField(const Cell& cell);
// The same, appended to `out`; AppendCsvText for a text cell given as a view.
void AppendCsvField(std::string* out, const Cell& cell);
void AppendCsvText(std::string* out, std::string_view text);

// A small table written whole, atomically: `header`, then `row(i)` for i < rows, fields as above.
Status WriteSmallCsv(const std::string& path, const std::vector<std::string>& header, size_t rows,
                     const std::function<std::vector<Cell>(size_t)>& row);

// True when a text cell could be taken for a formula by a spreadsheet: it does not parse as a
// Python float and matches G3's CSV_BLACK_LIST `^[＋－＝％＠+\-=%@]|;[＋－＝％＠+\-=%@]`.
bool LooksLikeFormula(std::string_view text);

}  // namespace msprobe::compare
