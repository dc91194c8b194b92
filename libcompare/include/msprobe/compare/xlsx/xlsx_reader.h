// Reads the cells of an xlsx workbook: the zip container (stored or deflated parts), the sheet list
// of xl/workbook.xml and its relationships, xl/sharedStrings.xml, and a worksheet's <sheetData>,
// streamed row by row so memory follows the longest row, not the sheet. Enough for what openpyxl
// (msprobe's compare and merge_result) and our streaming writer write; formulas are read as their
// cached values, styles are ignored. Bounded: every part is limited to kXlsxMaxPartBytes once
// inflated, cell references to Excel's 1,048,576 rows × 16,384 columns, and the XML is scanned
// without recursion.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/dump/formats/zip_archive.h"

namespace msprobe::compare {

// msprobe's zip check before read_excel allows 1 GiB per member (docs/formats.md §5.3).
inline constexpr uint64_t kXlsxMaxPartBytes = uint64_t{1} << 30;

struct XlsxCell {
  enum class Type : uint8_t {
    kEmpty,   // no cell, or a cell without a value
    kText,    // t="s" (shared), "inlineStr", "str" (formula result) and "d" (ISO date text)
    kNumber,  // t="n" or no t
    kBool,    // t="b"; number is 1 or 0
    kError,   // t="e"; text is the error ("#N/A", "#DIV/0!")
  };
  Type type = Type::kEmpty;
  std::string text;
  double number = 0;
};

class XlsxReader {
 public:
  // Reads the sheet list, the relationships and the shared strings. `file` must outlive the reader;
  // `source` names the file in messages.
  static Result<XlsxReader> Open(Bytes file, std::string source);

  // Sheet names in workbook order (the first is what pandas.read_excel reads by default).
  const std::vector<std::string>& sheet_names() const { return sheet_names_; }

  // Calls `visit(row_number, cells)` for every <row> of sheet `index` in file order; row_number is
  // 1-based as in the file, cells are dense from column A (absent ones kEmpty). The span is valid
  // only during the call. Stops at the first error `visit` returns.
  //
  // `decode`, when given, names the columns whose texts the caller reads (true at a column's
  // index); it is looked at per cell, so `visit` may change it between rows (e.g. once the header
  // is known). A text cell (t="s", "inlineStr", "str", "d") of any other column comes without its
  // text, which is then never copied: its type is kEmpty if the text is empty, else kText; an error
  // cell (t="e") comes as kError without its text.
  // Every cell is still checked as strictly (entities, numbers, shared string indexes), so a file
  // is refused or accepted alike with or without `decode`.
  using RowVisitor = std::function<Status(uint32_t row_number, std::span<const XlsxCell> cells)>;
  Status ReadSheet(size_t index, const RowVisitor& visit, const std::vector<bool>* decode = nullptr) const;

 private:
  XlsxReader(ZipArchive zip, std::string source) : zip_(std::move(zip)), source_(std::move(source)) {}
  ZipArchive zip_;
  std::string source_;
  std::vector<std::string> sheet_names_;
  std::vector<std::string> sheet_parts_;  // zip member of each sheet
  std::vector<std::string> shared_strings_;
};

// Every row of sheet `index`, with missing rows before the last one filled in as empty rows
// (for small files and tests).
Result<std::vector<std::vector<XlsxCell>>> ReadXlsxSheetRows(Bytes file, const std::string& source, size_t index);

}  // namespace msprobe::compare
