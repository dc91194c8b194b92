// Writes a result table as JSON for programs: {"mode": "ALL"|"SUMMARY"|"MD5", "header": [...],
// "rows": [[...], ...]}, each row's values in header order and typed (numbers, true/false,
// strings). Float inf/NaN become the strings "inf", "-inf", "nan" (Python's str), so the file is
// strict JSON. One row per line, so line tools work on it too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "msprobe/compare/table/rendered_rows.h"
#include "msprobe/compare/table/result_table.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

// msprobe's dump_mode name of a compare mode (docs/compare.md §4.1): ALL, SUMMARY or MD5.
const char* DumpModeName(CompareMode mode);

// Writes `table` to `path` atomically.
Status WriteJson(const std::string& path, const ResultTable& table);

// WriteJson for a table that comes in pieces (a streamed compare): the rows of each Append in
// order; nothing appears under `path` before Commit.
class JsonResultStream {
 public:
  static Result<JsonResultStream> Open(const std::string& path, CompareMode mode, const std::vector<std::string>& header);
  Status Append(const ResultTable& table);
  // The table's rows rendered, appended to `into`; AppendRendered appends them as Append appends the
  // table's (docs/distributed.md §3.1).
  static void Render(const ResultTable& table, RenderedRows* into);
  Status AppendRendered(const RenderedRows& rows);
  Status Commit() &&;

 private:
  explicit JsonResultStream(AtomicFile file) : file_(std::move(file)) {}
  AtomicFile file_;
  uint64_t rows_ = 0;
};

}  // namespace msprobe::compare
