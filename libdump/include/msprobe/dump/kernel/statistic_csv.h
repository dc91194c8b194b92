// statistic.csv files of kernel dumps in all their variants (spec kernel_dump.md §4.5): MindSpore's
// (quoted "(2,3)" shapes, a trailing comma on data rows), msprobe L2's (unquoted shapes that split
// into extra fields), ACL's device-side per-op files and ATB's. Read as text, never as numbers.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/status.h"

namespace msprobe {

// Limits that keep a hostile file from costing more than its size suggests.
inline constexpr size_t kMaxCsvFields = 4096;          // per record
inline constexpr uint64_t kMaxStatisticCsvBytes = uint64_t{1} << 32;

// RFC 4180 records: ',' separators, '"' quoting with "" escapes, "\n" or "\r\n" line ends; blank
// lines are skipped. InvalidInput with the line number for an unterminated quote, text after a
// closing quote, or a record of more than kMaxCsvFields fields.
struct CsvRecords {
  std::vector<std::vector<std::string>> records;
  std::vector<size_t> lines;  // 1-based line where each record starts
};
Result<CsvRecords> ParseCsvRecords(std::string_view text, const std::string& source);

struct StatisticCsv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each exactly header.size() fields
  std::vector<size_t> row_lines;               // 1-based line of each row's record, for messages

  // The index of the first column named any of `names`.
  std::optional<size_t> Column(std::initializer_list<std::string_view> names) const;
};

// Parses a statistic.csv: the first record is the header; a data row with one field more than the
// header whose last field is empty lost its trailing comma (MindSpore); a row with still more fields
// has its shape re-joined, from the field starting with '(' to the one ending with ')' (msprobe L2).
// A row that cannot be brought to the header's width is InvalidInput naming its line.
Result<StatisticCsv> ParseStatisticCsv(std::string_view text, const std::string& source);
Result<StatisticCsv> ReadStatisticCsv(const std::string& path);

// One row as the kernel compare reads it, whatever the variant names the columns (texts as
// written; empty when the variant has no such column).
struct StatisticRecord {
  std::string op_type, op_name, task_id, timestamp, io, slot, dtype, shape;
  std::string max, min, mean, norm;
};
std::vector<StatisticRecord> StatisticRecords(const StatisticCsv& csv);

}  // namespace msprobe
