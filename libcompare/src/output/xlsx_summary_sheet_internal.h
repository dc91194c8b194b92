// The compare workbook's summary sheet (xlsx_summary_sheet.cc) and what it shares with
// xlsx_writer.cc: the data sheets' slicing and the workbook's cell styles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/compare/output/cell.h"
#include "msprobe/compare/output/result_table.h"
#include "msprobe/compare/xlsx/xlsx_row_xml.h"
#include "msprobe/compare/xlsx/xlsx_stream_writer.h"

namespace msprobe::compare::internal {

// The compare workbook's cell styles after XlsxStreamWriter's built-in ones, in the order of
// CompareCellStyles().
inline constexpr uint32_t kStyleError = kXlsxFirstCustomStyle;  // red row FFFF0000
inline constexpr uint32_t kStyleWarning = kStyleError + 1;       // yellow row FFFFFF00
inline constexpr uint32_t kStyleFirstDiff = kStyleError + 2;     // orange row FFFFA500: -da's first diff
inline constexpr uint32_t kStyleBold = kStyleError + 3;          // summary labels
inline constexpr uint32_t kStyleLink = kStyleError + 4;          // summary cells that link to a data row
inline constexpr uint32_t kStylePercent = kStyleError + 5;       // statistics-mode relative errors (summary)
std::vector<XlsxCellStyle> CompareCellStyles();

// One data sheet: rows [first_row, first_row + rows) of the table.
struct XlsxDataSheet {
  std::string name;
  size_t first_row = 0;
  size_t rows = 0;
};

// The chart value of a main-metric cell: numbers as they are, "12.3%" texts as 0.123 and numeric
// texts parsed; nullopt for texts such as "N/A", "Nan", "unsupported" and for inf/NaN.
std::optional<double> MetricValue(const Cell& cell);

// The sheet "summary" after the data sheets: counts per Result (A1:B5), the first error with a
// link to its row (A7:B9), the -da first diff with a link and its stack (A11:B12), and the main
// metric along the rows (D:E) under a line chart at G2.
class XlsxSummarySheet {
 public:
  static constexpr char kName[] = "summary";

  XlsxSummarySheet(const ResultTable& table, const std::vector<XlsxDataSheet>& sheets);

  bool has_chart() const { return chart_; }
  XlsxSheetLayout Layout() const;
  // Sheet rows [first + 1, end + 1); reads only the table, so chunks may run in parallel.
  void Format(uint64_t first, uint64_t end, XlsxRowXml* xml) const;

 private:
  struct ChartPoint {
    size_t row_no;                // 1-based table row where the bucket starts
    std::optional<double> value;  // the bucket's worst metric; a gap when none is a number
  };
  std::vector<ChartPoint> ChartPoints() const;
  // The data sheet holding table row `row` and its 1-based Excel row there.
  std::pair<const XlsxDataSheet*, size_t> Locate(size_t row) const;
  std::string Link(size_t row) const;

  const ResultTable& table_;
  const std::vector<XlsxDataSheet>& sheets_;
  size_t pass_ = 0, warning_ = 0, error_ = 0;
  std::optional<size_t> first_error_;
  bool chart_ = false;
  int metric_ = 0;
  const char* metric_name_ = "";
  std::vector<ChartPoint> points_;
};

}  // namespace msprobe::compare::internal
