#include "msprobe/dump/kernel/statistic_csv.h"

#include "msprobe/dump/io/mapped_file.h"

namespace msprobe {
namespace {

Status LineError(const std::string& source, size_t line, const std::string& what) {
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

Result<CsvRecords> ParseCsvRecords(std::string_view text, const std::string& source) {
  CsvRecords out;
  std::vector<std::string> record;
  std::string field;
  size_t line = 1, record_line = 1;
  bool in_quotes = false, after_quote = false, any = false;
  auto end_field = [&]() -> Status {
    if (record.size() >= kMaxCsvFields) {
      return LineError(source, record_line, "more than " + std::to_string(kMaxCsvFields) + " fields");
    }
    record.push_back(std::move(field));
    field.clear();
    after_quote = false;
    return Status::Ok();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          in_quotes = false;
          after_quote = true;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == ',') {
      MSP_RETURN_IF_ERROR(end_field());
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n')) {
        return LineError(source, line, "a bare carriage return outside quotes");
      }
      if (c == '\r') ++i;
      if (any || !field.empty() || after_quote) {
        MSP_RETURN_IF_ERROR(end_field());
        out.records.push_back(std::move(record));
        out.lines.push_back(record_line);
        record.clear();
      }
      any = false;
      ++line;
      record_line = line;
    } else if (c == '"' && field.empty() && !after_quote) {
      in_quotes = true;
      any = true;
    } else if (after_quote) {
      return LineError(source, line, "text after a closing quote");
    } else {
      field += c;
      any = true;
    }
  }
  if (in_quotes) return LineError(source, record_line, "a quoted field is never closed");
  if (any || !field.empty() || after_quote) {
    MSP_RETURN_IF_ERROR(end_field());
    out.records.push_back(std::move(record));
    out.lines.push_back(record_line);
  }
  return out;
}

std::optional<size_t> StatisticCsv::Column(std::initializer_list<std::string_view> names) const {
  for (std::string_view name : names) {
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return i;
    }
  }
  return std::nullopt;
}

Result<StatisticCsv> ParseStatisticCsv(std::string_view text, const std::string& source) {
  MSP_ASSIGN_OR_RETURN(CsvRecords parsed, ParseCsvRecords(text, source));
  if (parsed.records.empty()) return Status::InvalidInput(source, "statistic.csv is empty: no header line");
  StatisticCsv csv;
  csv.header = std::move(parsed.records.front());
  for (size_t rec = 1; rec < parsed.records.size(); ++rec) {
    const size_t line = parsed.lines[rec];
    std::vector<std::string>& row = parsed.records[rec];
    const size_t fields = row.size();
    if (!FitRow(&row, csv.header.size())) {
      return LineError(source, line,
                       "row has " + std::to_string(fields) + " fields, the header has " + std::to_string(csv.header.size()));
    }
    csv.rows.push_back(std::move(row));
    csv.row_lines.push_back(line);
  }
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
  // Column names per variant (kernel_dump.md §4.5 a-d).
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

}  // namespace msprobe
