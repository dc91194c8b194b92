// Reads CSV as msprobe's CSVs are written (Python csv, QUOTE_MINIMAL, "," and '"', "\n" or "\r\n"
// line ends, an optional UTF-8 BOM): fields may be quoted, with "" for a quote and line breaks
// inside. Blank lines are skipped, as pandas does. Parses bytes; never copies unquoted fields.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/status.h"

namespace msprobe {

// Calls `visit(line, fields)` per record, `line` being the 1-based line where it starts. The views
// are valid only during the call. Stops at the first error `visit` returns; an unterminated quoted
// field or a stray character after a closing quote is an error naming the line.
using CsvRowVisitor = std::function<Status(uint64_t line, std::span<const std::string_view> fields)>;
Status ReadCsv(Bytes data, const std::string& source, const CsvRowVisitor& visit);

}  // namespace msprobe
