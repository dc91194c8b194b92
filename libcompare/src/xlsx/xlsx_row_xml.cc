#include "msprobe/compare/xlsx/xlsx_row_xml.h"

#include <array>
#include <charconv>
#include <iterator>

namespace msprobe::compare {
namespace {

constexpr char kHex[] = "0123456789ABCDEF";

bool IsHex(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'); }

// Control characters XML 1.0 cannot carry (tab, newline stay; carriage return is escaped too, as
// XML parsers would turn it into a newline).
bool IsEscapedControl(unsigned char c) { return c < 0x20 && c != '\t' && c != '\n'; }

// "_xHHHH_" at text[i] (which holds '_').
bool IsExcelEscapeAt(std::string_view text, size_t i) {
  return i + 7 <= text.size() && text[i + 1] == 'x' && IsHex(text[i + 2]) && IsHex(text[i + 3]) &&
         IsHex(text[i + 4]) && IsHex(text[i + 5]) && text[i + 6] == '_';
}

bool IsXmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// Bytes that may need escaping in a cell text: control characters, '&', '<', '>', and '_' (which
// starts an escape only before "xHHHH_").
constexpr std::array<bool, 256> kMayEscape = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = true;
  t['&'] = t['<'] = t['>'] = t['_'] = true;
  return t;
}();

// The first byte of text[i..] that may need escaping, or text.size().
size_t NextMayEscape(std::string_view text, size_t i) {
  while (i < text.size() && !kMayEscape[static_cast<unsigned char>(text[i])]) ++i;
  return i;
}

// The text escaped for <t>: entities, Excel's _xHHHH_ for control characters and for literal
// _xHHHH_ sequences. Runs that need nothing are copied whole.
void AppendCellText(std::string_view text, std::string* out) {
  size_t plain = 0;  // start of the run not yet copied
  for (size_t i = NextMayEscape(text, 0); i < text.size(); i = NextMayEscape(text, i + 1)) {
    const auto c = static_cast<unsigned char>(text[i]);
    const char* entity = nullptr;
    if (c == '&') entity = "&amp;";
    else if (c == '<') entity = "&lt;";
    else if (c == '>') entity = "&gt;";
    else if (!IsEscapedControl(c) && !(c == '_' && IsExcelEscapeAt(text, i))) continue;
    out->append(text.data() + plain, i - plain);
    plain = i + 1;
    if (entity) {
      out->append(entity);
    } else if (c == '_') {
      out->append("_x005F_");  // the underscore itself, escaped; the rest of the sequence follows as text
    } else {
      const char code[] = {'_', 'x', '0', '0', kHex[c >> 4], kHex[c & 15], '_'};
      out->append(code, sizeof code);
    }
  }
  out->append(text.data() + plain, text.size() - plain);
}

}  // namespace

std::string XlsxColumnName(uint32_t column) {
  char letters[8];
  size_t n = 0;
  for (uint64_t c = uint64_t{column} + 1; c > 0 && n < sizeof letters; c = (c - 1) / 26) {
    letters[n++] = static_cast<char>('A' + (c - 1) % 26);
  }
  return std::string(std::make_reverse_iterator(letters + n), std::make_reverse_iterator(letters));
}

void AppendXmlEscaped(std::string_view text, bool attribute, std::string* out) {
  for (char c : text) {
    switch (c) {
      case '&': out->append("&amp;"); break;
      case '<': out->append("&lt;"); break;
      case '>': out->append("&gt;"); break;
      case '"':
        if (attribute) {
          out->append("&quot;");
          break;
        }
        [[fallthrough]];
      default: out->push_back(c);
    }
  }
}

void XlsxRowXml::BeginRow(uint64_t row) {
  row_size_ = static_cast<size_t>(std::to_chars(row_digits_, row_digits_ + sizeof row_digits_, row).ptr - row_digits_);
  next_column_ = 0;
  out_->append("<row r=\"");
  out_->append(row_digits_, row_size_);
  out_->append("\">");
}

void XlsxRowXml::BeginRow(uint64_t row, uint32_t style) {
  if (style == 0) return BeginRow(row);
  row_size_ = static_cast<size_t>(std::to_chars(row_digits_, row_digits_ + sizeof row_digits_, row).ptr - row_digits_);
  next_column_ = 0;
  out_->append("<row r=\"");
  out_->append(row_digits_, row_size_);
  out_->push_back('"');
  AppendStyle(style);
  out_->append(" customFormat=\"1\">");
}

void XlsxRowXml::AppendStyle(uint32_t style) {
  char digits[12];
  const size_t size = static_cast<size_t>(std::to_chars(digits, digits + sizeof digits, style).ptr - digits);
  out_->append(" s=\"");
  out_->append(digits, size);
  out_->push_back('"');
}

void XlsxRowXml::OpenCell(uint32_t column, uint32_t style) {
  if (column == next_column_) {
    out_->append("<c");  // the cell right of the previous one: its reference is implied
  } else {
    char ref[40];
    char* p = ref;
    char letters[4];
    size_t n = 0;
    for (uint64_t c = uint64_t{column} + 1; c > 0 && n < sizeof letters; c = (c - 1) / 26) {
      letters[n++] = static_cast<char>('A' + (c - 1) % 26);
    }
    *p++ = '<', *p++ = 'c', *p++ = ' ', *p++ = 'r', *p++ = '=', *p++ = '"';
    while (n > 0) *p++ = letters[--n];
    for (size_t i = 0; i < row_size_; ++i) *p++ = row_digits_[i];
    *p++ = '"';
    out_->append(ref, static_cast<size_t>(p - ref));
  }
  next_column_ = column + 1;
  if (style != 0) AppendStyle(style);
}

void XlsxRowXml::Number(uint32_t column, double value, uint32_t style) {
  OpenCell(column, style);
  char digits[32];
  const size_t size = static_cast<size_t>(std::to_chars(digits, digits + sizeof digits, value).ptr - digits);
  out_->append("><v>");
  out_->append(digits, size);
  out_->append("</v></c>");
}

void XlsxRowXml::Text(uint32_t column, std::string_view text, uint32_t style) {
  OpenCell(column, style);
  constexpr std::string_view kOpen = " t=\"inlineStr\"><is><t>";
  constexpr std::string_view kOpenPreserve = " t=\"inlineStr\"><is><t xml:space=\"preserve\">";
  constexpr std::string_view kClose = "</t></is></c>";
  const bool preserve = !text.empty() && (IsXmlSpace(text.front()) || IsXmlSpace(text.back()));
  const std::string_view open = preserve ? kOpenPreserve : kOpen;
  out_->append(open.data(), open.size());
  AppendCellText(text, out_);
  out_->append(kClose.data(), kClose.size());
}

void XlsxRowXml::Blank(uint32_t column, uint32_t style) {
  OpenCell(column, style);
  out_->append("/>");
}

void XlsxRowXml::Bool(uint32_t column, bool value, uint32_t style) {
  OpenCell(column, style);
  out_->append(value ? " t=\"b\"><v>1</v></c>" : " t=\"b\"><v>0</v></c>");
}

}  // namespace msprobe::compare
