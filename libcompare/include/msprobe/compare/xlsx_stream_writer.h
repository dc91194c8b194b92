// A streaming xlsx writer for large plain tables (the merged workbook, merge_writer.h): the minimal
// package ([Content_Types].xml, _rels/.rels, xl/workbook.xml and its relationships, xl/styles.xml,
// xl/worksheets/sheetN.xml) in a ZIP written front to back (zip_stream_writer.h). Each sheet has a
// bold, centred, bordered header row frozen at the top, column widths, and data rows the caller
// formats (xlsx_row_xml.h). Rows are formatted and deflated in parallel on TBB, chunk by chunk, and
// written in order, so memory stays a few chunks whatever the sheet size; the whole sheet XML is
// never held.
//
// Cell styles (xl/styles.xml cellXfs): 0 the default, kXlsxStyleHeader, kXlsxStyleOutlier (light
// red fill FFC7CE, dark red text 9C0006).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "msprobe/compare/xlsx_row_xml.h"
#include "msprobe/compare/zip_stream_writer.h"
#include "msprobe/dump/status.h"

namespace msprobe::compare {

inline constexpr uint32_t kXlsxStyleHeader = 1;
inline constexpr uint32_t kXlsxStyleOutlier = 2;
inline constexpr uint64_t kXlsxMaxRows = 1'048'576;  // Excel's grid
inline constexpr uint32_t kXlsxMaxColumns = 16'384;

struct XlsxSheetLayout {
  std::string name;
  std::vector<std::string> header;  // row 1; its size is the sheet's column count
  std::vector<double> widths;       // per column, in characters (libxlsxwriter's set_column units)
  uint64_t rows = 0;                // data rows below the header
  uint64_t xml_bytes_bound = 0;     // at least the sheet XML's size: past 4 GB the member is ZIP64
};

// Formats data rows [first, end) (0-based; sheet row i + 2) into `xml`. Called concurrently for
// disjoint ranges, so it must only read shared state.
using XlsxRowsFormatter = std::function<void(uint64_t first, uint64_t end, XlsxRowXml* xml)>;

class XlsxStreamWriter {
 public:
  // `source` names the output in messages.
  XlsxStreamWriter(ZipStreamWriter::Sink sink, std::string source)
      : zip_(std::move(sink), source), source_(std::move(source)) {}

  // Writes the package parts for sheets named `sheet_names`, in order. A name must have 1 to 31
  // characters, none of []:*?/\, not start or end with an apostrophe, and differ from the others
  // ignoring ASCII case, as Excel requires.
  Status Begin(const std::vector<std::string>& sheet_names);
  // The next sheet (its name as given to Begin).
  Status WriteSheet(const XlsxSheetLayout& layout, const XlsxRowsFormatter& format_rows);
  // After the last sheet: the ZIP's central directory.
  Status Finish();

  // Excel's column width for `characters` as libxlsxwriter stores it (7-pixel digits, 5 of padding).
  static double StoredWidth(double characters);

 private:
  ZipStreamWriter zip_;
  std::string source_;
  std::vector<std::string> sheet_names_;
  size_t sheets_written_ = 0;
};

}  // namespace msprobe::compare
