// What both workbooks we write (xlsx_writer: compare results; merge_writer: merged ranks) need from
// libxlsxwriter: errors as Status, Excel's text limit, widths in characters, workbook ownership.
#pragma once

#include <xlsxwriter.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "msprobe/dump/status.h"

namespace msprobe::compare::internal {

inline constexpr size_t kExcelMaxCellChars = 32767;  // Excel refuses longer cell texts

// A failed libxlsxwriter call as a Status naming the output file.
Status XlsxStatus(const std::string& path, lxw_error err);

// Characters (not bytes) of a UTF-8 text, for column widths.
size_t Utf8Length(std::string_view s);

// The text cut to Excel's cell limit on a character boundary (stack columns can be longer).
std::string_view ExcelText(std::string_view s);

struct WorkbookFree {
  void operator()(lxw_workbook* wb) const { lxw_workbook_free(wb); }
};

}  // namespace msprobe::compare::internal
