#include "msprobe/dump/kernel/statistic_csv.h"

#include <fmt/format.h>

#include <array>
#include <iterator>
#include <optional>
#include <string_view>
#include <utility>

#include "msprobe/dump/text/csv_quote.h"
#include "msprobe/dump/text/csv_reader.h"
#include "msprobe/dump/io/mapped_file.h"

namespace msprobe {
namespace {

Status LineError(const std::string& source, uint64_t line, const std::string& what) {
  return Status::InvalidInput(source, "line " + std::to_string(line) + ": " + what);
}

// Brings a data row to `width` fields (see ParseStatisticCsv); false when it cannot.
bool FitRow(std::vector<std::string>* row, size_t width) {
  if (row->size() > width) {
    size_t open = 0;
    while (open < row->size() && !((*row)[open].starts_with('(') && !(*row)[open].ends_with(')'))) ++open;
    size_t close = open + 1;
    while (close < row->size() && !(*row)[close].ends_with(')')) ++close;
    if (close < row->size()) {
      for (size_t i = open + 1; i <= close; ++i) (*row)[open] += "," + (*row)[i];
      row->erase(row->begin() + static_cast<std::ptrdiff_t>(open + 1), row->begin() + static_cast<std::ptrdiff_t>(close + 1));
    }
  }
  if (row->size() == width + 1 && row->back().empty()) row->pop_back();  // the trailing comma
  return row->size() == width;
}

}  // namespace

std::optional<size_t> StatisticCsv::Column(std::initializer_list<std::string_view> names) const {
  for (std::string_view name : names) {
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return i;
    }
  }
  return std::nullopt;
}

Result<StatisticCsv> ParseStatisticCsv(std::string_view text, const std::string& source) {
  StatisticCsv csv;
  bool have_header = false;
  MSP_RETURN_IF_ERROR(ReadCsv(
      AsBytes(text), source,
      [&](uint64_t line, std::span<const std::string_view> fields) -> Status {
        std::vector<std::string> row(fields.begin(), fields.end());
        if (!std::exchange(have_header, true)) {
          csv.header = std::move(row);
          return Status::Ok();
        }
        if (!FitRow(&row, csv.header.size())) {
          return LineError(source, line,
                           "row has " + std::to_string(fields.size()) + " fields, the header has " +
                               std::to_string(csv.header.size()));
        }
        csv.rows.push_back(std::move(row));
        csv.row_lines.push_back(line);
        return Status::Ok();
      },
      kMaxCsvFields));
  if (!have_header) return Status::InvalidInput(source, "statistic.csv is empty: no header line");
  return csv;
}

Result<StatisticCsv> ReadStatisticCsv(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(std::shared_ptr<MappedFile> file, MappedFile::Open(path));
  if (file->size() > kMaxStatisticCsvBytes) {
    return Status::InvalidInput(path, "statistic.csv has " + std::to_string(file->size()) + " bytes, more than 4 GiB");
  }
  MSP_ASSIGN_OR_RETURN(MappedRegion all, file->MapAll());
  return ParseStatisticCsv(AsChars(all.bytes()), path);
}

namespace {

// A record's field and the names the variants give its column (docs/kernel_dump.md §4.5 a-d).
struct FieldColumn {
  std::string StatisticRecord::*field;
  std::array<std::string_view, 3> names;  // "" after the last
  bool pairs_rows;                        // the kernel compare pairs rows by it (§6.1)
};

constexpr FieldColumn kFieldColumns[] = {
    {&StatisticRecord::op_type, {"Op Type"}, false},
    {&StatisticRecord::op_name, {"Op Name"}, true},
    {&StatisticRecord::task_id, {"Task ID"}, true},
    {&StatisticRecord::timestamp, {"Timestamp"}, true},
    {&StatisticRecord::io, {"IO", "Input/Output"}, true},
    {&StatisticRecord::slot, {"Slot", "Index"}, true},
    {&StatisticRecord::dtype, {"Data Type", "Dtype"}, false},
    {&StatisticRecord::shape, {"Shape"}, false},
    {&StatisticRecord::max, {"Max Value", "Max"}, false},
    {&StatisticRecord::min, {"Min Value", "Min"}, false},
    {&StatisticRecord::mean, {"Avg Value", "Mean"}, false},
    {&StatisticRecord::norm, {"L2Norm Value", "l2norm", "Norm"}, false},
};

std::optional<size_t> ColumnOf(const StatisticCsv& csv, const FieldColumn& f) {
  for (std::string_view name : f.names) {
    if (name.empty()) break;
    if (const std::optional<size_t> column = csv.Column({name})) return column;
  }
  return std::nullopt;
}

}  // namespace

std::vector<StatisticRecord> StatisticRecords(const StatisticCsv& csv) {
  std::optional<size_t> columns[std::size(kFieldColumns)];
  for (size_t f = 0; f < std::size(kFieldColumns); ++f) columns[f] = ColumnOf(csv, kFieldColumns[f]);
  std::vector<StatisticRecord> records;
  records.reserve(csv.rows.size());
  for (const std::vector<std::string>& row : csv.rows) {
    StatisticRecord r;
    for (size_t f = 0; f < std::size(kFieldColumns); ++f) {
      if (columns[f]) r.*(kFieldColumns[f].field) = row[*columns[f]];
    }
    records.push_back(std::move(r));
  }
  return records;
}

Status CheckPairingColumns(const StatisticCsv& csv, const std::string& source) {
  for (const FieldColumn& f : kFieldColumns) {
    if (!f.pairs_rows || ColumnOf(csv, f)) continue;
    return Status::InvalidInput(source, fmt::format("no {} column (its header: {}); the compare pairs rows by Op Name, "
                                                    "Task ID, IO and Slot in Timestamp order: give the statistic.csv "
                                                    "of MindSpore's or msprobe's kernel dump (docs/kernel_dump.md §4.5 a, b)",
                                                    f.names[0], fmt::join(csv.header, ", ")));
  }
  return Status::Ok();
}

void AppendStatisticCsvRow(std::string* out, const KernelDumpName& name, const TensorInfo& info,
                           const TensorStats& stats) {
  const auto number = [&](double v) { return stats.has_values ? fmt::format("{}", v) : std::string(); };
  AppendCsvQuoted(out, name.op_type);
  *out += ',';
  AppendCsvQuoted(out, name.op_name);
  fmt::format_to(std::back_inserter(*out), ",{},{},{},{},{},{},{},\"({})\",{},{},{},{},{},{},{},{},{},\n",
                 name.task_id, name.stream_id, name.timestamp, name.io(), name.slot,
                 ByteSize(info.dtype, stats.numel), Name(info.dtype), fmt::join(info.shape, ","),
                 number(stats.max), number(stats.min), number(stats.mean), stats.numel, stats.nan_count,
                 stats.neg_inf_count, stats.pos_inf_count, stats.zero_count, number(stats.norm));
}

}  // namespace msprobe
