// What both workbooks we write (xlsx_writer: compare results; merge_writer: merged ranks) share:
// Excel's text limit and widths in characters.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace msprobe::compare::internal {

inline constexpr size_t kExcelMaxCellChars = 32767;  // Excel refuses longer cell texts

// Characters (not bytes) of a UTF-8 text, for column widths.
size_t Utf8Length(std::string_view s);

// The text cut to Excel's cell limit on a character boundary (stack columns can be longer).
std::string_view ExcelText(std::string_view s);

}  // namespace msprobe::compare::internal
