// A streaming xlsx writer for large plain tables (the merged workbook, merge_writer.h; the compare
// result, xlsx_writer.h): the minimal package ([Content_Types].xml, _rels/.rels, xl/workbook.xml and
// its relationships, xl/styles.xml, xl/worksheets/sheetN.xml, and for a sheet with a chart its
// relationships, xl/drawings/drawingK.xml and xl/charts/chartK.xml) in a ZIP written front to back
// (zip_stream_writer.h). A sheet has an optional bold, centred, bordered header row frozen at the
// top (with an optional autofilter over the table), column widths, data rows the caller formats
// (xlsx_row_xml.h), internal hyperlinks and one line chart. Rows are formatted and deflated in
// parallel on TBB, chunk by chunk, and written in order, so memory stays a few chunks whatever the
// sheet size; the whole sheet XML is never held. The package parts are in xlsx_package_xml_internal.h.
//
// Cell styles (xl/styles.xml cellXfs): 0 the default, kXlsxStyleHeader, kXlsxStyleOutlier (light
// red fill FFC7CE, dark red text 9C0006), then the caller's XlsxCellStyle list from
// kXlsxFirstCustomStyle on. Without custom styles styles.xml is the same bytes as before they
// existed, so the merge workbook did not change.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/xlsx/xlsx_row_xml.h"
#include "msprobe/dump/formats/zip_stream_writer.h"
#include "msprobe/dump/status.h"

namespace msprobe::compare {

inline constexpr uint32_t kXlsxStyleHeader = 1;
inline constexpr uint32_t kXlsxStyleOutlier = 2;
inline constexpr uint32_t kXlsxFirstCustomStyle = 3;
inline constexpr uint64_t kXlsxMaxRows = 1'048'576;  // Excel's grid
inline constexpr uint32_t kXlsxMaxColumns = 16'384;

// A cell style the caller adds (Begin); the i-th gets the index kXlsxFirstCustomStyle + i.
struct XlsxCellStyle {
  uint32_t fill_rgb = 0;            // a solid fill of this RGB (0xFF0000 is red); 0: no fill
  bool bold = false;
  bool hyperlink = false;           // blue underlined text, as Excel shows links
  uint32_t number_format = 0;       // a built-in number format id (10 is "0.00%"); 0: General
};

// What must be known of a sheet before any is written: workbook.xml (sheet names, the autofilter's
// defined name) and the content types (the chart parts) come first in the archive.
struct XlsxSheetPlan {
  std::string name;
  uint32_t filter_columns = 0;  // > 0: an autofilter on the header row over this many columns
  uint64_t filter_rows = 0;     // and this many data rows below it
  bool chart = false;           // the sheet has a line chart (XlsxSheetLayout::chart)
};

// An internal link on a cell, as Excel's HYPERLINK dialog makes it ("Place in This Document").
struct XlsxHyperlink {
  std::string cell;      // "B7"
  std::string location;  // "'Sheet1'!A3"
  std::string display;   // the cell's text
};

// A line chart of one series (c:lineChart), its data in cell ranges of the workbook.
struct XlsxLineChart {
  std::string title, series_name, x_axis_title, y_axis_title;
  std::string categories;  // "summary!$D$2:$D$53" (XlsxRangeRef)
  std::string values;      // "summary!$E$2:$E$53"
  uint32_t column = 0;     // top-left cell of the chart (0-based); 960 × 432 pixels from there
  uint32_t row = 0;
};

// An upper bound of a sheet's XML size for XlsxSheetLayout::xml_bytes_bound: `rows` rows (a header
// included) of `columns` cells. `text_bytes()` gives the bytes of the texts the cells will hold; it is
// only called when the markup alone leaves the sheet under 4 GB, since it may walk the whole table.
uint64_t XlsxSheetXmlBound(uint64_t rows, uint64_t columns, const std::function<uint64_t()>& text_bytes);

struct XlsxSheetLayout {
  std::string name;
  std::vector<std::string> header;  // row 1, frozen; its size is the sheet's column count. Empty: no
                                    // header row, the caller's rows start at row 1
  std::vector<double> widths;       // per column, in characters (libxlsxwriter's set_column units);
                                    // 0 keeps Excel's default. Without a header, their count is the
                                    // sheet's column count
  uint64_t rows = 0;                // rows below the header
  uint64_t xml_bytes_bound = 0;     // at least the sheet XML's size: past 4 GB the member is ZIP64
  std::vector<uint32_t> column_styles = {};   // per column, the style of its empty cells; 0 none
  std::vector<XlsxHyperlink> hyperlinks = {};
  std::optional<XlsxLineChart> chart = {};    // when its plan says so
};

// Formats data rows [first, end) (0-based; sheet row i + 2, or i + 1 without a header) into `xml`.
// Called concurrently for disjoint ranges, so it must only read shared state.
using XlsxRowsFormatter = std::function<void(uint64_t first, uint64_t end, XlsxRowXml* xml)>;

// "Sheet1" or "'my sheet'" (apostrophes doubled): the sheet as a formula names it.
std::string XlsxSheetRef(std::string_view sheet);
// "summary!$E$2:$E$53": column `column`, rows [first_row, last_row] (1-based), absolute.
std::string XlsxRangeRef(std::string_view sheet, uint32_t column, uint64_t first_row, uint64_t last_row);

class XlsxStreamWriter {
 public:
  // `source` names the output in messages.
  XlsxStreamWriter(ZipStreamWriter::Sink sink, std::string source)
      : zip_(std::move(sink), source), source_(std::move(source)) {}

  // Writes the package parts for the sheets planned, in order. A name must have 1 to 31 characters,
  // none of []:*?/\, not start or end with an apostrophe, and differ from the others ignoring ASCII
  // case, as Excel requires.
  Status Begin(const std::vector<XlsxSheetPlan>& sheets, const std::vector<XlsxCellStyle>& styles);
  // Plain sheets named `sheet_names` and the three built-in styles.
  Status Begin(const std::vector<std::string>& sheet_names);
  // The next sheet (its name and chart as planned).
  Status WriteSheet(const XlsxSheetLayout& layout, const XlsxRowsFormatter& format_rows);
  // After the last sheet: the ZIP's central directory.
  Status Finish();

  // Excel's column width for `characters` as libxlsxwriter stores it (7-pixel digits, 5 of padding).
  static double StoredWidth(double characters);

 private:
  Status WriteChartParts(const XlsxLineChart& chart);

  ZipStreamWriter zip_;
  std::string source_;
  std::vector<XlsxSheetPlan> sheets_;
  size_t sheets_written_ = 0;
  size_t charts_written_ = 0;
};

}  // namespace msprobe::compare
