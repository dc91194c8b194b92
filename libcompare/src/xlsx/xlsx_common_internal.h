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

// "_xHHHH_" at text[i]: Excel's escape of the character U+HHHH in a cell text (ECMA-376 Part 1,
// §22.9.2.19, ST_Xstring). The writer guards a literal one (xlsx_row_batch.cc), the reader decodes.
bool IsExcelEscapeAt(std::string_view text, size_t i);

// Replaces each "_xHHHH_" in `text` with the UTF-8 of U+HHHH, as Excel and LibreOffice read a cell
// text ("_x005F_" gives the underscore, so a guarded "_x005F_x0041_" reads back as "_x0041_"). A
// surrogate, which UTF-8 cannot hold alone, becomes U+FFFD.
void DecodeExcelEscapes(std::string* text);

}  // namespace msprobe::compare::internal
