#include "xlsx/xlsx_common_internal.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "msprobe/dump/text/utf8.h"

namespace msprobe::compare::internal {

size_t Utf8Length(std::string_view s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string_view ExcelText(std::string_view s) {
  if (s.size() <= kExcelMaxCellChars) return s;
  size_t chars = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((s[i] & 0xC0) != 0x80 && chars++ == kExcelMaxCellChars) return s.substr(0, i);
  }
  return s;
}

bool IsExcelEscapeAt(std::string_view text, size_t i) {
  if (i + 7 > text.size() || text[i] != '_' || text[i + 1] != 'x' || text[i + 6] != '_') return false;
  for (size_t k = i + 2; k < i + 6; ++k) {
    if (!std::isxdigit(static_cast<unsigned char>(text[k]))) return false;
  }
  return true;
}

void DecodeExcelEscapes(std::string* text) {
  size_t i = text->find("_x");
  if (i == std::string::npos) return;
  std::string out(*text, 0, i);
  while (i < text->size()) {
    if (!IsExcelEscapeAt(*text, i)) {
      out.push_back((*text)[i++]);
      continue;
    }
    unsigned cp = 0;
    std::from_chars(text->data() + i + 2, text->data() + i + 6, cp, 16);
    AppendUtf8(cp >= 0xD800 && cp <= 0xDFFF ? 0xFFFD : cp, &out);
    i += 7;
  }
  text->swap(out);
}

}  // namespace msprobe::compare::internal
