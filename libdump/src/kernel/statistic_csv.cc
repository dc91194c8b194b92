#include "msprobe/dump/kernel/statistic_csv.h"

#include <fmt/format.h>

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

std::vector<StatisticRecord> StatisticRecords(const StatisticCsv& csv) {
  struct Binding {
    std::string StatisticRecord::*field;
    std::optional<size_t> column;
  };
  // Column names per variant (docs/kernel_dump.md §4.5 a-d).
  const Binding bindings[] = {
      {&StatisticRecord::op_type, csv.Column({"Op Type"})},
      {&StatisticRecord::op_name, csv.Column({"Op Name"})},
      {&StatisticRecord::task_id, csv.Column({"Task ID"})},
      {&StatisticRecord::timestamp, csv.Column({"Timestamp"})},
      {&StatisticRecord::io, csv.Column({"IO", "Input/Output"})},
      {&StatisticRecord::slot, csv.Column({"Slot", "Index"})},
      {&StatisticRecord::dtype, csv.Column({"Data Type", "Dtype"})},
      {&StatisticRecord::shape, csv.Column({"Shape"})},
      {&StatisticRecord::max, csv.Column({"Max Value", "Max"})},
      {&StatisticRecord::min, csv.Column({"Min Value", "Min"})},
      {&StatisticRecord::mean, csv.Column({"Avg Value", "Mean"})},
      {&StatisticRecord::norm, csv.Column({"L2Norm Value", "l2norm", "Norm"})},
  };
  std::vector<StatisticRecord> records;
  records.reserve(csv.rows.size());
  for (const std::vector<std::string>& row : csv.rows) {
    StatisticRecord r;
    for (const Binding& b : bindings) {
      if (b.column) r.*(b.field) = row[*b.column];
    }
    records.push_back(std::move(r));
  }
  return records;
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
