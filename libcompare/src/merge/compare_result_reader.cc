#include "msprobe/compare/merge/compare_result_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <span>

#include "msprobe/dump/text/csv_reader.h"
#include "msprobe/dump/text/python_format.h"
#include "msprobe/compare/xlsx/xlsx_reader.h"
#include "msprobe/dump/io/mapped_file.h"

namespace msprobe::compare {
namespace {

// A cell before pandas' column inference, viewing the reader's storage.
struct RawCell {
  XlsxCell::Type type = XlsxCell::Type::kEmpty;
  std::string_view text;
  double number = 0;
};

bool EqualsIgnoreCase(std::string_view s, std::string_view lower) {
  return s.size() == lower.size() && std::equal(s.begin(), s.end(), lower.begin(), [](char a, char b) {
           return (a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a) == b;
         });
}

// A string pandas' maybe_convert_numeric turns into a number: optional blanks around an optional
// sign and a decimal or exponent literal, or inf/infinity/nan. *integral: an integer literal.
bool ParsePandasNumber(std::string_view s, double* value, bool* integral) {
  constexpr std::string_view kBlank = " \t\r\n";
  const size_t first = s.find_first_not_of(kBlank);
  if (first == std::string_view::npos) return false;
  s = s.substr(first, s.find_last_not_of(kBlank) - first + 1);
  bool negative = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  const double sign = negative ? -1.0 : 1.0;
  if (EqualsIgnoreCase(s, "inf") || EqualsIgnoreCase(s, "infinity")) {
    *value = sign * std::numeric_limits<double>::infinity();
    *integral = false;
    return true;
  }
  if (EqualsIgnoreCase(s, "nan")) {
    *value = std::numeric_limits<double>::quiet_NaN();
    *integral = false;
    return true;
  }
  // Only digits, one '.', and an exponent: from_chars alone would also take "infinity" or "nan(…)".
  bool digits = false;
  size_t i = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, digits = true;
  bool is_int = true;
  if (i < s.size() && s[i] == '.') {
    is_int = false;
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, digits = true;
  }
  if (!digits) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    is_int = false;
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const size_t exp_start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == exp_start) return false;
  }
  if (i != s.size()) return false;
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (end != s.data() + s.size() || (ec != std::errc() && ec != std::errc::result_out_of_range)) return false;
  *value = sign * v;
  *integral = is_int;
  return true;
}

bool IsBoolText(std::string_view s) {
  return s == "True" || s == "TRUE" || s == "true" || s == "False" || s == "FALSE" || s == "false";
}

bool IsIntegral(double v) { return std::isfinite(v) && std::trunc(v) == v && std::fabs(v) < 9.2e18; }

// What pandas' inference needs to know of one column, over all its rows.
struct ColumnKinds {
  bool numeric = true;  // every cell a number, NaN or numeric string
  bool any_float = false;
  bool boolish = true;  // every cell a bool or a "True"/"False"-like string

  void Add(const RawCell& raw) {
    switch (raw.type) {
      case XlsxCell::Type::kNumber:
        any_float |= !IsIntegral(raw.number);
        boolish = false;
        break;
      case XlsxCell::Type::kError:
        any_float = true;
        boolish = false;
        break;
      case XlsxCell::Type::kBool: numeric = false; break;
      case XlsxCell::Type::kEmpty: numeric = boolish = false; break;
      case XlsxCell::Type::kText: {
        if (!numeric && !boolish) break;  // settled: the column keeps each cell's kind
        double v;
        bool integral;
        if (ParsePandasNumber(raw.text, &v, &integral)) {
          any_float |= !integral;
        } else {
          numeric = false;
        }
        boolish = boolish && IsBoolText(raw.text);
        break;
      }
    }
  }

  // Whether Infer can change a cell of this column.
  bool Converts() const { return numeric || boolish; }

  // The column's kind applied to one of its cells (`text`: the cell's text when it is one).
  PackedCell Infer(PackedCell cell, std::string_view text) const {
    if (numeric) {
      double v = 0;
      switch (cell.kind) {
        case Cell::Kind::kFloat: v = std::bit_cast<double>(cell.payload); break;
        case Cell::Kind::kInt: v = static_cast<double>(static_cast<int64_t>(cell.payload)); break;
        case Cell::Kind::kBool: return cell;  // a bool makes the column non-numeric; kept for safety
        case Cell::Kind::kText: {
          bool integral = true;
          if (!ParsePandasNumber(text, &v, &integral)) return cell;
          break;
        }
      }
      if (any_float) return {Cell::Kind::kFloat, 0, std::bit_cast<uint64_t>(v)};
      return {Cell::Kind::kInt, 0, static_cast<uint64_t>(static_cast<int64_t>(v))};
    }
    if (boolish && cell.kind == Cell::Kind::kText) {
      return {Cell::Kind::kBool, 0, text == "True" || text == "TRUE" || text == "true" ? 1u : 0u};
    }
    return cell;
  }
};

// Collects the header and the selected cells, row by row, whatever the file format.
class ResultCollector {
 public:
  ResultCollector(const std::string& path, const CompareResultQuery& query) : path_(path), query_(query) {}

  void SetHeader(std::vector<std::string> header) { out_.header = std::move(header); }
  // CSV cells come untyped; the selected ones are typed by this rule (true: always a text).
  void SetCsvTextColumns(std::vector<bool> text_columns) {
    csv_ = true;
    csv_text_columns_ = std::move(text_columns);
  }
  const std::vector<std::string>& header() const { return out_.header; }
  // The header positions kept; empty until the first data row.
  const std::vector<size_t>& columns() const { return out_.columns; }

  Status AddRow(std::span<const RawCell> cells) {
    return AddSelected([&](size_t col) { return col < cells.size() ? cells[col] : RawCell{}; });
  }
  // A CSV record: its fields are typed once selected.
  Status AddCsvRow(std::span<const std::string_view> fields) {
    return AddSelected([&](size_t col) {
      RawCell cell;
      if (col < fields.size()) cell.text = fields[col];
      return cell;
    });
  }

  CompareResultColumns Finish() && {
    const size_t width = out_.columns.size();
    for (size_t i = 0; i < width; ++i) {
      if (!kinds_[i].Converts()) continue;
      for (size_t k = i; k < out_.cells.size(); k += width) {
        PackedCell& cell = out_.cells[k];
        cell = kinds_[i].Infer(cell, cell.kind == Cell::Kind::kText ? out_.TextOf(cell) : std::string_view());
      }
    }
    return std::move(out_);
  }

 private:
  // `cell_at(col)`: the raw cell at header position col.
  template <class CellAt>
  Status AddSelected(const CellAt& cell_at) {
    if (out_.data_rows++ == 0) {
      MSP_ASSIGN_OR_RETURN(out_.columns, query_.select(out_.header));
      if (out_.columns.empty()) return Status::Internal(path_, "no column selected");
      kinds_.assign(out_.columns.size(), ColumnKinds{});
      selected_.resize(out_.columns.size());
    }
    for (size_t i = 0; i < out_.columns.size(); ++i) {
      const size_t col = out_.columns[i];
      selected_[i] = cell_at(col);
      if (csv_) TypeCsvField(col < csv_text_columns_.size() && csv_text_columns_[col], &selected_[i]);
      kinds_[i].Add(selected_[i]);
    }
    const RawCell& key = selected_[0];
    if (key.type != XlsxCell::Type::kText || !query_.keep(key.text)) return Status::Ok();
    for (const RawCell& cell : selected_) MSP_RETURN_IF_ERROR(Pack(cell));
    return Status::Ok();
  }

  // Our CSV's typing (see the header): a text column stays text, "" is empty, numbers are numbers.
  static void TypeCsvField(bool text_column, RawCell* cell) {
    bool integral;
    if (text_column) {
      cell->type = XlsxCell::Type::kText;
    } else if (cell->text.empty()) {
      cell->type = XlsxCell::Type::kEmpty;
    } else if (ParsePandasNumber(cell->text, &cell->number, &integral)) {
      cell->type = XlsxCell::Type::kNumber;
    } else {
      cell->type = XlsxCell::Type::kText;
    }
  }

  // pandas' openpyxl reader (_convert_cell): empty → "", error → NaN, integral numbers → int.
  Status Pack(const RawCell& raw) {
    switch (raw.type) {
      case XlsxCell::Type::kEmpty: out_.cells.push_back({Cell::Kind::kText, 0, out_.text.size()}); break;
      case XlsxCell::Type::kText:
        if (raw.text.size() > std::numeric_limits<uint32_t>::max()) {
          return Status::InvalidInput(path_, fmt::format("a {}-byte cell is too large", raw.text.size()));
        }
        out_.cells.push_back({Cell::Kind::kText, static_cast<uint32_t>(raw.text.size()), out_.text.size()});
        out_.text.append(raw.text);
        break;
      case XlsxCell::Type::kNumber:
        out_.cells.push_back(IsIntegral(raw.number)
                                 ? PackedCell{Cell::Kind::kInt, 0, static_cast<uint64_t>(static_cast<int64_t>(raw.number))}
                                 : PackedCell{Cell::Kind::kFloat, 0, std::bit_cast<uint64_t>(raw.number)});
        break;
      case XlsxCell::Type::kBool: out_.cells.push_back({Cell::Kind::kBool, 0, raw.number != 0 ? 1u : 0u}); break;
      case XlsxCell::Type::kError:
        out_.cells.push_back({Cell::Kind::kFloat, 0, std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN())});
        break;
    }
    return Status::Ok();
  }

  const std::string& path_;
  const CompareResultQuery& query_;
  CompareResultColumns out_;
  std::vector<ColumnKinds> kinds_;
  std::vector<RawCell> selected_;
  bool csv_ = false;
  std::vector<bool> csv_text_columns_;
};

std::string HeaderName(const XlsxCell& cell, size_t index) {
  switch (cell.type) {
    case XlsxCell::Type::kText: return cell.text;
    case XlsxCell::Type::kNumber: return IsIntegral(cell.number) ? fmt::format("{}", static_cast<int64_t>(cell.number))
                                                                 : PythonFloatRepr(cell.number);
    case XlsxCell::Type::kBool: return std::string(PythonBoolStr(cell.number != 0));
    case XlsxCell::Type::kEmpty:
    case XlsxCell::Type::kError: break;
  }
  return fmt::format("Unnamed: {}", index);
}

Status ReadXlsxResult(Bytes bytes, const std::string& path, ResultCollector* collector) {
  MSP_ASSIGN_OR_RETURN(XlsxReader reader, XlsxReader::Open(bytes, path));
  if (reader.sheet_names().empty()) return Status::InvalidInput(path, "the workbook has no sheet");
  uint32_t last_row = 0;
  uint64_t pending_empty = 0;  // empty rows are data only when a non-empty row follows (pandas trims the tail)
  std::vector<RawCell> raw;
  const std::vector<RawCell> no_cells;
  // Once the collector has chosen its columns, the texts of the others are not decoded; their
  // cells still say whether they are empty (kEmpty), which is all the row's emptiness needs.
  std::vector<bool> decode(16'384, true);  // every column of Excel's grid until then
  bool decoding_all = true;
  return reader.ReadSheet(0, [&](uint32_t row_number, std::span<const XlsxCell> cells) -> Status {
    if (row_number <= last_row) {
      return Status::InvalidInput(path, fmt::format("first sheet: row {} comes after row {}", row_number, last_row));
    }
    bool empty = true;  // an undecoded text is kEmpty when empty, kText with no text otherwise
    for (size_t i = 0; i < cells.size() && empty; ++i) {
      const XlsxCell& c = cells[i];
      empty = c.type == XlsxCell::Type::kEmpty ||
              (c.type == XlsxCell::Type::kText && c.text.empty() && i < decode.size() && decode[i]);
    }
    pending_empty += row_number - last_row - 1;  // rows missing from the file are empty rows
    last_row = row_number;
    if (row_number == 1 || collector->header().empty()) {
      std::vector<std::string> header;
      for (size_t i = 0; i < cells.size(); ++i) header.push_back(HeaderName(cells[i], i));
      collector->SetHeader(std::move(header));
      pending_empty = 0;
      return Status::Ok();
    }
    if (empty) {
      ++pending_empty;
      return Status::Ok();
    }
    for (; pending_empty > 0; --pending_empty) MSP_RETURN_IF_ERROR(collector->AddRow(no_cells));
    raw.resize(cells.size());
    for (size_t i = 0; i < cells.size(); ++i) raw[i] = {cells[i].type, cells[i].text, cells[i].number};
    MSP_RETURN_IF_ERROR(collector->AddRow(raw));
    if (decoding_all && !collector->columns().empty()) {
      decoding_all = false;
      decode.assign(decode.size(), false);
      for (const size_t col : collector->columns()) {
        if (col >= decode.size()) decode.resize(col + 1, false);
        decode[col] = true;
      }
    }
    return Status::Ok();
  }, &decode);
}

Status ReadCsvResult(Bytes bytes, const std::string& path, ResultCollector* collector) {
  static const std::vector<std::string_view> kStatsDiffs = {"Max diff",       "Min diff",       "Mean diff",
                                                            "L2norm diff",    "MaxRelativeErr", "MinRelativeErr",
                                                            "MeanRelativeErr", "NormRelativeErr"};
  bool have_header = false;
  return ReadCsv(bytes, path, [&](uint64_t, std::span<const std::string_view> fields) -> Status {
    if (!have_header) {
      have_header = true;
      std::vector<std::string> header(fields.begin(), fields.end());
      const bool summary = std::find(header.begin(), header.end(), "Max diff") != header.end();
      std::vector<bool> text_columns;
      for (const std::string& name : header) {
        text_columns.push_back(summary && std::find(kStatsDiffs.begin(), kStatsDiffs.end(), name) != kStatsDiffs.end());
      }
      collector->SetHeader(std::move(header));
      collector->SetCsvTextColumns(std::move(text_columns));
      return Status::Ok();
    }
    return collector->AddCsvRow(fields);
  });
}

}  // namespace

Cell CompareResultColumns::ToCell(size_t row, size_t column) const {
  const PackedCell& cell = at(row, column);
  switch (cell.kind) {
    case Cell::Kind::kText: return Cell::Text(std::string(TextOf(cell)));
    case Cell::Kind::kFloat: return Cell::Float(std::bit_cast<double>(cell.payload));
    case Cell::Kind::kInt: return Cell::Int(static_cast<int64_t>(cell.payload));
    case Cell::Kind::kBool: return Cell::Bool(cell.payload != 0);
  }
  return Cell::Text("");
}

Result<CompareResultColumns> ReadCompareResult(const std::string& path, const CompareResultQuery& query) {
  MSP_ASSIGN_OR_RETURN(std::shared_ptr<MappedFile> file, MappedFile::Open(path));
  MSP_ASSIGN_OR_RETURN(MappedRegion region, file->MapAll());
  ResultCollector collector(path, query);
  if (path.ends_with(".csv")) {
    MSP_RETURN_IF_ERROR(ReadCsvResult(region.bytes(), path, &collector));
  } else if (path.ends_with(".xlsx")) {
    MSP_RETURN_IF_ERROR(ReadXlsxResult(region.bytes(), path, &collector));
  } else {
    return Status::Unsupported(path, "a compare result is a .csv or .xlsx file");
  }
  return std::move(collector).Finish();
}

}  // namespace msprobe::compare
