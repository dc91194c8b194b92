#include "msprobe/compare/xlsx/xlsx_row_batch.h"

#include "xlsx/xlsx_common_internal.h"

namespace msprobe::compare {

using internal::IsExcelEscapeAt;


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
  // Besides Excel's own escapes, three things cannot go into the sheet XML as they are: a NUL (it
  // would end the C string libxlsxwriter takes) and the non-characters U+FFFE and U+FFFF (valid
  // UTF-8, "\ufffe" in a dump.json, but not XML 1.0 characters, so XML parsers refuse the part).
  // Each is written as Excel's escape "_xHHHH_", which Excel and LibreOffice read back as that
  // character. libxlsxwriter escapes the other control characters itself.
  static constexpr std::string_view kSpecial("_\0\xEF", 3);
  const size_t offset = texts_.size();
  size_t copied = 0;
  for (size_t i = text.find_first_of(kSpecial); i != std::string_view::npos; i = text.find_first_of(kSpecial, i + 1)) {
    const char c = text[i];
    const bool nonchar = c == '\xEF' && i + 2 < text.size() && text[i + 1] == '\xBF' &&
                         (text[i + 2] == '\xBE' || text[i + 2] == '\xBF');
    if (c == '\xEF' && !nonchar) continue;
    if (c == '_' && !IsExcelEscapeAt(text, i)) continue;
    texts_.append(text.substr(copied, i - copied));
    if (c == '\0') {
      texts_.append("_x0000_");
      copied = i + 1;
    } else if (nonchar) {
      texts_.append(text[i + 2] == '\xBE' ? "_xFFFE_" : "_xFFFF_");
      copied = i + 3;
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
