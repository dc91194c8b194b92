// Writes a result table as JSON for programs: {"mode": "ALL"|"SUMMARY"|"MD5", "header": [...],
// "rows": [[...], ...]}, each row's values in header order and typed (numbers, true/false,
// strings). Float inf/NaN become the strings "inf", "-inf", "nan" (Python's str), so the file is
// strict JSON. One row per line, so line tools work on it too.
#pragma once

#include <string>

#include "msprobe/compare/output/result_table.h"
#include "msprobe/dump/status.h"

namespace msprobe::compare {

// msprobe's dump_mode name of a compare mode (docs/compare.md §4.1): ALL, SUMMARY or MD5.
const char* DumpModeName(CompareMode mode);

// Writes `table` to `path` atomically.
Status WriteJson(const std::string& path, const ResultTable& table);

}  // namespace msprobe::compare
