// Writes one CSV field as Python's csv module does with QUOTE_MINIMAL (the counterpart of
// csv_reader.h): quoted when it holds ',', '"', '\r' or '\n', embedded quotes doubled.
#pragma once

#include <string>
#include <string_view>

namespace msprobe {

// Python 3.11 leaves a bare '\r' unquoted when the line terminator is "\n", and its own reader then
// takes it for a line end; we quote it too, so every field reads back as written.
void AppendCsvQuoted(std::string* out, std::string_view field);

}  // namespace msprobe
