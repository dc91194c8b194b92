// A batch of worksheet rows as cell records: what a sheet's rows formatter fills on a worker thread
// so that only handing the cells to libxlsxwriter, which is not thread-safe, stays serial
// (xlsx_workbook.h). Texts are copied into one arena per batch, each with its terminating NUL as
// libxlsxwriter needs. A literal "_xHHHH_" in a text is guarded as "_x005F_xHHHH_", since Excel
// reads the former as an escaped character, and a NUL as "_x0000_"; libxlsxwriter escapes the other
// control characters itself.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace msprobe::compare {

class XlsxRowBatch {
 public:
  enum class Kind : uint8_t { kNumber, kText, kBool, kBlank, kLink };
  struct Cell {
    uint32_t column = 0;  // 0-based
    uint32_t style = 0;   // XlsxWorkbook::AddStyle's id; 0 the default
    Kind kind = Kind::kBlank;
    double number = 0;                    // kNumber; kBool as 0 or 1
    size_t text = 0, link = 0;            // offsets into text() of kText's and kLink's texts
  };

  // Opens row `row` (1-based, as the sheet shows it). `style` != 0 formats the whole row, so a fill
  // marks it beyond its cells too.
  void BeginRow(uint64_t row, uint32_t style = 0);
  // A number cell; `value` must be finite.
  void Number(uint32_t column, double value, uint32_t style = 0);
  void Text(uint32_t column, std::string_view text, uint32_t style = 0);
  void Bool(uint32_t column, bool value, uint32_t style = 0);
  // A cell with a format and no value.
  void Blank(uint32_t column, uint32_t style);
  // A text that links to `location` in this workbook ("'Sheet1'!A3").
  void Link(uint32_t column, std::string_view text, std::string_view location, uint32_t style = 0);

  struct Row {
    uint64_t row;       // 0-based
    uint32_t style;
    size_t first_cell;  // its cells are cells()[first_cell, the next row's first_cell)
  };
  const std::vector<Row>& rows() const { return rows_; }
  const std::vector<Cell>& cells() const { return cells_; }
  const char* text(size_t offset) const { return texts_.data() + offset; }

  std::pair<uint64_t, uint64_t> range;  // the rows [first, end) the formatter is asked for

 private:
  void Add(uint32_t column, Kind kind, double number, uint32_t style);
  size_t AddText(std::string_view text);

  std::vector<Row> rows_;
  std::vector<Cell> cells_;
  std::string texts_;
};

}  // namespace msprobe::compare
