// Reads CSV as msprobe's CSVs are written (Python csv, QUOTE_MINIMAL, "," and '"', "\n" or "\r\n"
// line ends, an optional UTF-8 BOM): fields may be quoted, with "" for a quote and line breaks
// inside. Blank lines are skipped, as pandas does. Parses bytes; never copies unquoted fields.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/util/status.h"

namespace msprobe {

// A bound for readers of narrow tables (statistic.csv, mapping.csv), so a hostile record of
// millions of commas is refused before it costs more than its size suggests.
inline constexpr size_t kMaxCsvFields = 4096;

// Calls `visit(line, fields)` per record, `line` being the 1-based line where it starts. The views
// are valid only during the call. Stops at the first error `visit` returns; an unterminated quoted
// field, a stray character after a closing quote or a record of more than `max_fields` fields is an
// error naming the line.
using CsvRowVisitor = std::function<Status(uint64_t line, std::span<const std::string_view> fields)>;
Status ReadCsv(Bytes data, const std::string& source, const CsvRowVisitor& visit,
               size_t max_fields = std::numeric_limits<size_t>::max());

}  // namespace msprobe
