// Every workbook we write (the compare result, xlsx_writer.h; the merged ranks, merge_writer.h) is
// written by libxlsxwriter, the library that has met Excel's, LibreOffice's and WPS's quirks, in its
// constant_memory mode: a row is flushed to a temporary file once the next begins, so memory does
// not grow with the sheet. The temporary files go beside the output rather than to /tmp, which is
// often RAM-backed, and the workbook is assembled under a temporary name renamed into place by
// Close() (atomic_file.h).
//
// libxlsxwriter is serial and a workbook is not safe to share between threads, so the cells are
// made in parallel: WriteRows runs the caller's formatter on TBB over chunks of rows, each filling
// an XlsxRowBatch, and hands the batches to libxlsxwriter in row order on one thread at a time.
// Distinct workbooks may be written on distinct threads at once.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/xlsx/xlsx_row_batch.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/util/status.h"

struct lxw_workbook;
struct lxw_worksheet;
struct lxw_format;

namespace msprobe::compare {

inline constexpr uint64_t kXlsxMaxRows = 1'048'576;  // Excel's grid
inline constexpr uint32_t kXlsxMaxColumns = 16'384;
// Past this many cells a sheet's XML may pass 4 GB (a long text is rare; a cell's markup and number
// stay under 60 bytes): the package then needs ZIP64, which is left off below it since some readers
// of old still refuse it.
inline constexpr uint64_t kXlsxZip64Cells = 40'000'000;

struct XlsxCellStyle {
  uint32_t fill_rgb = 0;        // a solid fill of this RGB (0xFF0000 is red); 0: no fill
  uint32_t font_rgb = 0;        // 0: the default black
  bool bold = false;
  bool centred = false;
  bool border = false;          // thin, all round
  bool hyperlink = false;       // blue underlined text, as Excel shows links
  uint8_t number_format = 0;    // a built-in number format id (10 is "0.00%"); 0: General
};

// A series of a scatter chart: y values over x values, both cell ranges ("=summary!$E$2:$E$53").
struct XlsxChartSeries {
  std::string name, x_range, y_range;
  uint32_t rgb = 0;
  bool line = true;         // straight segments between points; false: markers only
  uint8_t marker_size = 3;
};

// A scatter chart with straight lines, blank cells as gaps (never as 0, never smoothed).
struct XlsxChart {
  std::string title, x_axis_title, y_axis_title;
  bool log_y = false;
  std::vector<XlsxChartSeries> series;
  uint32_t row = 0, column = 0;  // its top-left cell (0-based); 960 × 432 pixels from there
};

// Fills the batch with sheet rows [first, end) of the caller's numbering (its BeginRow says which
// sheet row each is). Called concurrently for disjoint ranges, so it must only read shared state.
using XlsxRowsFormatter = std::function<void(uint64_t first, uint64_t end, XlsxRowBatch* batch)>;

// "Sheet1" or "'my sheet'" (apostrophes doubled): the sheet as a formula names it.
std::string XlsxSheetRef(std::string_view sheet);
// "=summary!$E$2:$E$53": column `column` (0-based), rows [first_row, last_row] (1-based), absolute.
std::string XlsxRangeRef(std::string_view sheet, uint32_t column, uint64_t first_row, uint64_t last_row);

class XlsxWorkbook;

class XlsxSheet {
 public:
  // Row 1: bold, centred, bordered; frozen above the rows, with an autofilter over `filter_rows`
  // rows below it when that is > 0.
  Status WriteHeader(const std::vector<std::string>& header, uint64_t filter_rows);
  // The autofilter of `columns` columns over the header and `rows` rows below it; may come after
  // the rows.
  Status AddAutofilter(size_t columns, uint64_t rows);
  // Per column, in characters; 0 keeps the default width.
  void SetWidths(const std::vector<double>& widths);
  // Rows [0, rows) of the caller's numbering, formatted in parallel and written in order.
  Status WriteRows(uint64_t rows, const XlsxRowsFormatter& format);
  Status InsertChart(const XlsxChart& chart);

 private:
  friend class XlsxWorkbook;
  XlsxSheet(XlsxWorkbook* book, lxw_worksheet* sheet) : book_(book), sheet_(sheet) {}
  Status Write(const XlsxRowBatch& batch);

  XlsxWorkbook* book_;
  lxw_worksheet* sheet_;
};

class XlsxWorkbook {
 public:
  // `cells` bounds the cells the workbook will hold: ZIP64 past kXlsxZip64Cells.
  static Result<std::unique_ptr<XlsxWorkbook>> Create(const std::string& path, uint64_t cells);
  ~XlsxWorkbook();  // an unclosed workbook is discarded, its temporary file removed
  XlsxWorkbook(const XlsxWorkbook&) = delete;
  XlsxWorkbook& operator=(const XlsxWorkbook&) = delete;

  // A style for the cells; its id for XlsxRowBatch (ids start at 1; 0 is the default style).
  uint32_t AddStyle(const XlsxCellStyle& style);
  // The next sheet. Excel's rules are errors naming the sheet: 1 to 31 characters, none of
  // []:*?/\, not starting or ending with an apostrophe, unlike the other names ignoring case.
  Result<XlsxSheet*> AddSheet(const std::string& name);
  // Writes the workbook and renames it into place.
  Status Close();

 private:
  friend class XlsxSheet;
  XlsxWorkbook(AtomicFile file, std::string tmpdir) : file_(std::move(file)), tmpdir_(std::move(tmpdir)) {}
  lxw_format* format(uint32_t style) const { return formats_[style]; }
  Status Error(std::string_view what, int code) const;  // code: an lxw_error

  AtomicFile file_;
  std::string tmpdir_;
  lxw_workbook* book_ = nullptr;
  std::vector<lxw_format*> formats_{nullptr};
  uint32_t header_style_ = 0;
  std::vector<std::unique_ptr<XlsxSheet>> sheets_;
};

}  // namespace msprobe::compare
