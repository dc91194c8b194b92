// Appends SpreadsheetML rows (<row>/<c> elements of a worksheet's <sheetData>) to a buffer, with
// no allocation per cell: numbers in their shortest round-trip form (std::to_chars), texts as
// inline strings (t="inlineStr"), booleans as t="b". A cell carries its reference (r="C7") only
// after a gap; right of its neighbour the reference is implied (ECMA-376 makes r optional, and
// Excel, openpyxl and our xlsx_reader count columns), which saves a fifth of the XML. Texts are escaped as Excel reads them back
// (ECMA-376 ST_Xstring, as libxlsxwriter and XlsxWriter write them): '&', '<', '>' as entities;
// control characters other than tab and newline as "_xHHHH_"; a literal "_xHHHH_" in the text
// guarded as "_x005F_xHHHH_"; xml:space="preserve" when the text starts or ends with white space.
// Values are never written as formulas.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace msprobe::compare {

// "A" for column 0, "Z", "AA" … "XFD" for 16383.
std::string XlsxColumnName(uint32_t column);

// Appends `text` with '&', '<', '>' and (for attribute values) '"' as entities.
void AppendXmlEscaped(std::string_view text, bool attribute, std::string* out);

class XlsxRowXml {
 public:
  explicit XlsxRowXml(std::string* out) : out_(out) {}

  // Opens row `row` (1-based, as in the sheet). Cells follow in increasing column order.
  void BeginRow(uint64_t row);
  // A row with its own format (s="style" customFormat="1"): Excel shows it on the cells the row
  // does not hold too, so a fill marks the whole row.
  void BeginRow(uint64_t row, uint32_t style);
  // A number cell; `value` must be finite. Style 0 is the default cell format.
  void Number(uint32_t column, double value, uint32_t style = 0);
  void Text(uint32_t column, std::string_view text, uint32_t style = 0);
  void Bool(uint32_t column, bool value, uint32_t style = 0);
  // A cell with a format and no value.
  void Blank(uint32_t column, uint32_t style);
  void EndRow() { out_->append("</row>"); }

  std::string* buffer() const { return out_; }

 private:
  void OpenCell(uint32_t column, uint32_t style);
  void AppendStyle(uint32_t style);

  std::string* out_;
  char row_digits_[24] = {};
  size_t row_size_ = 0;
  uint32_t next_column_ = 0;  // the column a cell without reference would take
};

}  // namespace msprobe::compare
