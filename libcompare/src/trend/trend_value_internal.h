// How msprobe's data2db reads numbers (docs/trend.md §5): directory numbers with Python's int(), a
// statistic with Python's float() when it is text, and every statistic clamped to ±1e9 with the
// infinities kept apart as ±(1e9 + 1) and NaN stored as NULL.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "msprobe/dump/text/json_file.h"

namespace msprobe::compare::internal {

// Python's int(text) of base 10: surrounding whitespace, a sign, digits with single underscores
// between them ("007", "-1", " 3", "1_0"). nullopt for anything else and beyond int64.
std::optional<int64_t> PythonInt(std::string_view text);
// Python's float(text): surrounding whitespace, a sign, decimal digits with single underscores
// between them, an exponent, or inf/infinity/nan in any case; correctly rounded, overflow to ±inf.
std::optional<double> PythonFloat(std::string_view text);
// Python's str.isdigit() on ASCII text: non-empty and every character 0-9.
bool AllDigits(std::string_view text);

// The value stored for a statistic: NaN is none (SQLite stores it as NULL), +inf 1e9 + 1, -inf
// -(1e9 + 1), anything else clamped to [-1e9, 1e9].
std::optional<double> TrendValue(double value);
// The same of a recorded JSON value: a number, a bool (1 or 0), text read by PythonFloat; none for
// anything else (null, a list, an object) and for a missing key (`value` null).
std::optional<double> TrendValue(const JsonValue* value);
// Whether pandas.read_csv reads a cell as missing: empty, or one of its missing-value words ("nan",
// "NULL", "N/A", ...).
bool IsMissingCell(std::string_view cell);
// The same of a csv cell (monitor files, read as pandas reads them): missing cells are none, other
// text is read by PythonFloat.
std::optional<double> TrendValueOfCell(std::string_view cell);

}  // namespace msprobe::compare::internal
