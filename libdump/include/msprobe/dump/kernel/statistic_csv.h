// statistic.csv files of kernel dumps (docs/kernel_dump.md §4.5), read in all their variants:
// MindSpore's (quoted "(2,3)" shapes, a trailing comma on data rows), msprobe L2's (unquoted shapes
// that split into extra fields), ACL's device-side per-op files and ATB's, as text, never as numbers;
// and written in MindSpore's variant by msprobe-dump statistic.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/kernel/kernel_dump_name.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/dump/tensor/tensor.h"
#include "msprobe/dump/tensor/tensor_stats.h"

namespace msprobe {

// The largest statistic.csv read (a hostile file must not cost more than that).
inline constexpr uint64_t kMaxStatisticCsvBytes = uint64_t{1} << 32;

struct StatisticCsv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each exactly header.size() fields
  std::vector<size_t> row_lines;               // 1-based line of each row's record, for messages

  // The index of the first column named any of `names`.
  std::optional<size_t> Column(std::initializer_list<std::string_view> names) const;
};

// Parses a statistic.csv (csv_reader.h records; blank lines skipped, at most kMaxCsvFields fields a
// record): the first record is the header; a data row with one field more than the
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
// InvalidInput naming the first column the kernel compare pairs rows by (Op Name, Task ID, Timestamp,
// IO, Slot; docs/kernel_dump.md §6.1) that `csv` (read from `source`) lacks, with its header.
Status CheckPairingColumns(const StatisticCsv& csv, const std::string& source);

// MindSpore's header (§4.5 a): its fixed prefix, then the categories we compute, in its names.
inline constexpr std::string_view kStatisticCsvHeader =
    "Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,"
    "Max Value,Min Value,Avg Value,Count,Nan Count,Negative Inf Count,Positive Inf Count,Zero Count,"
    "L2Norm Value\n";

// Appends the row of one tensor file under kStatisticCsvHeader; like MindSpore's, every field is
// followed by ',' and the shape is quoted "(2,3)". Max/min/avg/norm are empty when no value counts.
void AppendStatisticCsvRow(std::string* out, const KernelDumpName& name, const TensorInfo& info,
                           const TensorStats& stats);

}  // namespace msprobe
