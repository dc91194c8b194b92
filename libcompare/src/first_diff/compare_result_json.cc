#include "first_diff/compare_result_json_internal.h"

#include <array>
#include <string_view>
#include <utility>

#include "msprobe/dump/text/python_json.h"
#include "msprobe/dump/text/python_parse.h"
#include "msprobe/dump/io/atomic_file.h"
#include "util/ordered_pipeline_internal.h"

namespace msprobe::compare {
namespace {

constexpr int kIndent = 4;  // msprobe: save_json(file_path, check_result, indent=4)

// How a column's cell reaches the json.
enum class ColumnRole : uint8_t { kCell, kPythonStr, kResult, kErrMessage, kStack };

// A column of the table: its member name, escaped once, and its role.
struct Column {
  PyJsonWriter::EncodedKey key;
  ColumnRole role = ColumnRole::kCell;
};

std::vector<Column> Columns(const ResultTable& table) {
  const std::vector<std::string> header = table.Header();
  std::vector<Column> columns(header.size());
  for (size_t col = 0; col < header.size(); ++col) {
    columns[col].key = PyJsonWriter::EncodeKey(header[col]);
    if (table.mode == CompareMode::kSummary && col >= 8 && col < 16) {
      columns[col].role = ColumnRole::kPythonStr;  // the diff columns reach the json as their str()
    } else if (header[col] == "Result") {
      columns[col].role = ColumnRole::kResult;
    } else if (header[col] == "Err_message") {
      columns[col].role = ColumnRole::kErrMessage;
    } else if (header[col] == "NPU_Stack_Info") {
      columns[col].role = ColumnRole::kStack;
    }
  }
  return columns;
}

// The members -da adds after the table's columns.
const PyJsonWriter::EncodedKey& ExtraKey(int which) {
  static const std::array<PyJsonWriter::EncodedKey, 6> kKeys = {
      PyJsonWriter::EncodeKey("state"),          PyJsonWriter::EncodeKey("api_origin_name"),
      PyJsonWriter::EncodeKey("NPU P2POp op"),   PyJsonWriter::EncodeKey("Bench P2POp op"),
      PyJsonWriter::EncodeKey("NPU P2POp peer"), PyJsonWriter::EncodeKey("Bench P2POp peer")};
  return kKeys[which];
}

// One row's members, written as the row's cells are visited: no copy of the cells.
class RowWriter : public ResultCellVisitor {
 public:
  RowWriter(PyJsonWriter* w, const std::vector<Column>& columns, const ResultRow& row,
            const std::pair<Cell, Cell>& verdict)
      : w_(w), columns_(columns), row_(row), verdict_(verdict) {}

  void Text(std::string_view text) override {
    if (!NextKey() || Replaced()) return;
    w_->String(text);
  }
  void Value(const Cell& cell) override {
    if (!NextKey() || Replaced()) return;
    if (columns_[col_].role == ColumnRole::kPythonStr && !cell.is_text()) {
      w_->String(cell.ToPython());
    } else {
      WritePyJson(cell, w_);
    }
  }

 private:
  // Writes the next column's key; false past the header.
  bool NextKey() {
    col_ = next_++;
    if (col_ >= columns_.size()) return false;
    w_->Key(columns_[col_].key);
    return true;
  }
  // Result and Err_message come from -da's verdict, not the row; the stack goes as a list of lines.
  bool Replaced() {
    switch (columns_[col_].role) {
      case ColumnRole::kResult: WritePyJson(verdict_.first, w_); return true;
      case ColumnRole::kErrMessage: WritePyJson(verdict_.second, w_); return true;
      case ColumnRole::kStack:
        if (row_.stack_info == "N/A") return false;
        if (auto lines = ParsePythonStrList(row_.stack_info)) {
          w_->StringList(*lines);
        } else {
          w_->String(row_.stack_info);
        }
        return true;
      default: return false;
    }
  }

  PyJsonWriter* w_;
  const std::vector<Column>& columns_;
  const ResultRow& row_;
  const std::pair<Cell, Cell>& verdict_;
  size_t col_ = 0, next_ = 0;
};

void WriteRow(PyJsonWriter* w, const ResultTable& table, const std::vector<Column>& columns, const ResultRow& row,
              const P2pColumns& p2p) {
  const std::pair<Cell, Cell> verdict = DaVerdictCells(row, table.mode);
  w->BeginObject();
  RowWriter cells(w, columns, row, verdict);
  table.VisitCells(row, &cells);
  const std::string_view extras[] = {RowStateName(row.state), row.api, p2p.target_op, p2p.golden_op, p2p.target_peer,
                                     p2p.golden_peer};
  for (int i = 0; i < 6; ++i) {
    w->Key(ExtraKey(i));
    w->String(extras[i]);
  }
  w->EndObject();
}

// The top-level members for checks [range.first, range.second), each after a newline and one
// indent as json.dump lays them out, inside "{" and "\n}" (the writer drops those).
PyJsonWriter FormatChecks(const ResultTable& table, const std::vector<Column>& columns,
                          const std::vector<P2pColumns>& p2p, const std::vector<ApiCheck>& checks,
                          std::pair<size_t, size_t> range) {
  PyJsonWriter w(kIndent);
  // A row takes about 1.6 KB at indent 4: room for the block up front, so the text is not copied
  // again and again as it grows.
  size_t rows = 0;
  for (size_t c = range.first; c < range.second; ++c) rows += checks[c].end_row - checks[c].first_row;
  w.Reserve(rows * 1800 + 4096);
  w.BeginObject();
  for (size_t c = range.first; c < range.second; ++c) {
    const ApiCheck& check = checks[c];
    w.Key(check.api);
    w.BeginObject();
    w.Key("is_same");
    w.Bool(check.is_same);
    w.Key("op_items");
    w.BeginArray();
    for (size_t row_idx = check.first_row; row_idx < check.end_row; ++row_idx) {
      WriteRow(&w, table, columns, table.rows[row_idx], p2p[row_idx]);
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndObject();
  return w;
}

}  // namespace

const char* RowStateName(RowState state) {
  switch (state) {
    case RowState::kInput: return "input";
    case RowState::kOutput: return "output";
    case RowState::kParameters: return "parameters";
    case RowState::kParametersGrad: return "parameters_grad";
    case RowState::kDebug: return "debug";
  }
  return "input";
}

Result<CompareResultJsonStream> CompareResultJsonStream::Open(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  return CompareResultJsonStream(std::move(file));
}

Status CompareResultJsonStream::Append(const ResultTable& table, const std::vector<P2pColumns>& p2p,
                                       const std::vector<ApiCheck>& checks) {
  if (p2p.size() != table.rows.size()) {
    return Status::Internal(file_.path(), "the P2POp columns do not cover the table's rows");
  }
  const std::vector<Column> columns = Columns(table);
  // The file is several times the dump: APIs are formatted in blocks on all cores and written in order.
  constexpr size_t kBlockRows = 4096;
  size_t next = 0;
  return internal::FormatBlocksInOrder(
      [&](internal::BlockRange* range) {
        range->first = next;
        for (size_t rows = 0; next < checks.size() && rows < kBlockRows; ++next) {
          rows += checks[next].end_row - checks[next].first_row;
        }
        range->second = next;
        return range->first < checks.size();
      },
      [&](internal::BlockRange range) { return FormatChecks(table, columns, p2p, checks, range); },
      [&](const PyJsonWriter& block) {
        MSP_RETURN_IF_ERROR(file_.Write(empty_ ? "{" : ","));
        empty_ = false;
        const std::string_view text = block.text();
        return file_.Write(text.substr(1, text.size() - 3));  // the members alone
      });
}

Status CompareResultJsonStream::Commit() && {
  MSP_RETURN_IF_ERROR(file_.Write(empty_ ? "{}" : "\n}"));  // json.dump's {} when there is no API
  return file_.Commit();
}

Status WriteCompareResultJson(const std::string& path, const ResultTable& table, const std::vector<P2pColumns>& p2p,
                              const std::vector<ApiCheck>& checks) {
  MSP_ASSIGN_OR_RETURN(CompareResultJsonStream stream, CompareResultJsonStream::Open(path));
  MSP_RETURN_IF_ERROR(stream.Append(table, p2p, checks));
  return std::move(stream).Commit();
}

}  // namespace msprobe::compare
