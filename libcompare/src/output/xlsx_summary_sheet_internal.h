// The compare workbook's summary sheet (xlsx_summary_sheet.cc) and what it shares with
// xlsx_writer.cc: the data sheets' slicing and the workbook's cell styles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/compare/table/cell.h"
#include "msprobe/compare/table/result_table.h"
#include "msprobe/compare/xlsx/xlsx_row_batch.h"
#include "msprobe/compare/xlsx/xlsx_workbook.h"

namespace msprobe::compare::internal {

// The compare workbook's cell styles, added to its workbook by AddTo.
struct CompareStyles {
  uint32_t error = 0;       // red row FFFF0000
  uint32_t warning = 0;     // yellow row FFFFFF00
  uint32_t first_diff = 0;  // orange row FFFFA500: -da's first diff
  uint32_t bold = 0;        // summary labels
  uint32_t link = 0;        // summary cells that link to a data row
  uint32_t percent = 0;     // statistics-mode relative errors (summary)
  static CompareStyles AddTo(XlsxWorkbook* book);
};

// One data sheet: rows [first_row, first_row + rows) of the table.
struct XlsxDataSheet {
  std::string name;
  size_t first_row = 0;
  size_t rows = 0;
};

// A table of fewer rows than a sheet holds has one data sheet, named so; G3 keeps one only below
// the limit (docs/compare.md §1.4).
inline constexpr const char* kOneDataSheet = "Sheet1";
inline bool FitsOneSheet(size_t rows, size_t max_rows_per_sheet) { return rows < max_rows_per_sheet; }

// The data sheets of a table of `rows` rows: G3 save_excel's slicing (docs/compare.md §1.4).
std::vector<XlsxDataSheet> PlanSheets(size_t rows, size_t max_rows_per_sheet);

// The chart value of a main-metric cell: numbers as they are, "12.3%" texts as 0.123 and numeric
// texts parsed; nullopt for texts such as "N/A", "Nan", "unsupported" and for inf/NaN.
std::optional<double> MetricValue(const Cell& cell);

// What the summary sheet shows, gathered as the data rows go by, so that it needs no table.
struct XlsxSummaryFacts {
  explicit XlsxSummaryFacts(CompareMode mode) : mode(mode) {}
  // The next row, in table order.
  void Add(const ResultRow& row);
  bool charted() const { return mode != CompareMode::kMd5; }

  CompareMode mode;
  size_t rows = 0, pass = 0, warning = 0, error = 0;
  // The rows not compared (docs/compare.md §5.4): those written without a counterpart, plus what the
  // table does not hold (XlsxResultStream::NoteNotCompared).
  uint64_t unmatched_target = 0, unmatched_golden = 0, unreadable_tensors = 0;
  std::optional<size_t> first_error;
  std::string first_error_name;
  bool attribute = false;                  // --attribute: a "First cause" line
  std::optional<size_t> first_cause_row;
  std::string first_cause_text;            // "api (origin)"
  std::optional<size_t> first_diff_row;    // -da
  std::string first_diff_name, first_diff_stack;
  // Charted modes, per row: the main metric (NaN when not a number) and whether the row is an error.
  std::vector<double> metric;
  std::vector<bool> is_error;
};

// The sheet "summary" after the data sheets: counts per Result (A1:B5), the rows not compared
// (A6:B8), --attribute's first cause (A9:B9), the first error with a link to its row (A10:B12), the
// -da first diff with a link and its stack (A14:B15), and along the
// rows (D:G) the main metric, the value the chart plots and that value again on error rows only,
// under a chart at I2 (docs/compare.md §5.3).
class XlsxSummarySheet {
 public:
  static constexpr char kName[] = "summary";

  XlsxSummarySheet(const XlsxSummaryFacts& facts, const std::vector<XlsxDataSheet>& sheets, const CompareStyles& styles);

  // Sheet rows 1 … Rows().
  uint64_t Rows() const;
  std::vector<double> Widths() const;
  // Sheet rows [first + 1, end + 1); reads only the facts, so chunks may run in parallel.
  void Format(uint64_t first, uint64_t end, XlsxRowBatch* batch) const;
  // The chart, when the mode has a metric to plot.
  std::optional<XlsxChart> Chart() const;

 private:
  struct ChartPoint {
    size_t row_no;                // 1-based table row where the bucket starts
    std::optional<double> value;  // the bucket's worst metric; a gap when none is a number
    bool error = false;           // the bucket holds an error row
  };
  std::vector<ChartPoint> ChartPoints() const;
  // What the chart plots for a metric value: 1 - Cosine, or NormRelativeErr, floored for the log axis.
  double Plotted(double metric) const;
  // The data sheet holding table row `row` and its 1-based Excel row there.
  std::pair<const XlsxDataSheet*, size_t> Locate(size_t row) const;
  std::string Link(size_t row) const;

  const XlsxSummaryFacts& facts_;
  const std::vector<XlsxDataSheet>& sheets_;
  CompareStyles styles_;
  bool chart_ = false;
  const char* metric_name_ = "";
  const char* plotted_name_ = "";
  std::vector<ChartPoint> points_;
};

}  // namespace msprobe::compare::internal
