#include "msprobe/compare/xlsx/xlsx_row_batch.h"

#include <cctype>

namespace msprobe::compare {
namespace {

// "_xHHHH_" at text[i], which Excel would read as the character U+HHHH.
bool IsExcelEscapeAt(std::string_view text, size_t i) {
  if (i + 7 > text.size() || text[i] != '_' || text[i + 1] != 'x' || text[i + 6] != '_') return false;
  for (size_t k = i + 2; k < i + 6; ++k) {
    if (!std::isxdigit(static_cast<unsigned char>(text[k]))) return false;
  }
  return true;
}

}  // namespace

void XlsxRowBatch::BeginRow(uint64_t row, uint32_t style) { rows_.push_back({row - 1, style, cells_.size()}); }

void XlsxRowBatch::Add(uint32_t column, Kind kind, double number, uint32_t style) {
  Cell cell;
  cell.column = column;
  cell.style = style;
  cell.kind = kind;
  cell.number = number;
  cells_.push_back(cell);
}

size_t XlsxRowBatch::AddText(std::string_view text) {
  const size_t offset = texts_.size();
  size_t copied = 0;
  for (size_t i = text.find_first_of(std::string_view("_\0", 2)); i != std::string_view::npos;
       i = text.find_first_of(std::string_view("_\0", 2), i + 1)) {
    const bool nul = text[i] == '\0';
    if (!nul && !IsExcelEscapeAt(text, i)) continue;
    texts_.append(text.substr(copied, i - copied));
    if (nul) {
      texts_.append("_x0000_");  // Excel's escape: a NUL would end the C string libxlsxwriter takes
      copied = i + 1;
    } else {
      texts_.append("_x005F");  // the underscore itself, escaped; the rest of the sequence follows as text
      copied = i;
    }
  }
  texts_.append(text.substr(copied));
  texts_.push_back('\0');
  return offset;
}

void XlsxRowBatch::Number(uint32_t column, double value, uint32_t style) { Add(column, Kind::kNumber, value, style); }

void XlsxRowBatch::Text(uint32_t column, std::string_view text, uint32_t style) {
  Add(column, Kind::kText, 0, style);
  cells_.back().text = AddText(text);
}

void XlsxRowBatch::Bool(uint32_t column, bool value, uint32_t style) { Add(column, Kind::kBool, value ? 1 : 0, style); }

void XlsxRowBatch::Blank(uint32_t column, uint32_t style) { Add(column, Kind::kBlank, 0, style); }

void XlsxRowBatch::Link(uint32_t column, std::string_view text, std::string_view location, uint32_t style) {
  Add(column, Kind::kLink, 0, style);
  cells_.back().text = AddText(text);
  const size_t link = texts_.size();
  texts_.append("internal:").append(location).push_back('\0');
  cells_.back().link = link;
}

}  // namespace msprobe::compare
