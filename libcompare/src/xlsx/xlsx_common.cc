#include "xlsx/xlsx_common_internal.h"

#include <algorithm>

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

}  // namespace msprobe::compare::internal
