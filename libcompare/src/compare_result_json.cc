#include "msprobe/compare/compare_result_json.h"

#include <utility>

#include "msprobe/compare/python_json.h"
#include "msprobe/dump/atomic_file.h"
#include "ordered_blocks_internal.h"

namespace msprobe::compare {
namespace {

constexpr int kIndent = 4;  // msprobe: save_json(file_path, check_result, indent=4)

// How a column's cell reaches the json.
enum class ColumnRole : uint8_t { kCell, kPythonStr, kResult, kErrMessage, kStack };

std::vector<ColumnRole> ColumnRoles(const ResultTable& table, const std::vector<std::string>& header) {
  std::vector<ColumnRole> roles(header.size(), ColumnRole::kCell);
  for (size_t col = 0; col < header.size(); ++col) {
    if (table.mode == CompareMode::kSummary && col >= 8 && col < 16) {
      roles[col] = ColumnRole::kPythonStr;  // the diff columns reach the json as their str()
    } else if (header[col] == "Result") {
      roles[col] = ColumnRole::kResult;
    } else if (header[col] == "Err_message") {
      roles[col] = ColumnRole::kErrMessage;
    } else if (header[col] == "NPU_Stack_Info") {
      roles[col] = ColumnRole::kStack;
    }
  }
  return roles;
}

// One row's members, written as the row's cells are visited: no copy of the cells.
class RowWriter : public ResultCellVisitor {
 public:
  RowWriter(PyJsonWriter* w, const std::vector<std::string>& header, const std::vector<ColumnRole>& roles,
            const ResultRow& row, const std::pair<Cell, Cell>& verdict)
      : w_(w), header_(header), roles_(roles), row_(row), verdict_(verdict) {}

  void Text(std::string_view text) override {
    if (!NextKey() || Replaced()) return;
    w_->String(text);
  }
  void Value(const Cell& cell) override {
    if (!NextKey() || Replaced()) return;
    if (roles_[col_] == ColumnRole::kPythonStr && !cell.is_text()) {
      w_->String(cell.ToPython());
    } else {
      w_->Value(cell);
    }
  }

 private:
  // Writes the next column's key; false past the header.
  bool NextKey() {
    col_ = next_++;
    if (col_ >= header_.size()) return false;
    w_->Key(header_[col_]);
    return true;
  }
  // Result and Err_message come from -da's verdict, not the row; the stack goes as a list of lines.
  bool Replaced() {
    switch (roles_[col_]) {
      case ColumnRole::kResult: w_->Value(verdict_.first); return true;
      case ColumnRole::kErrMessage: w_->Value(verdict_.second); return true;
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
  const std::vector<std::string>& header_;
  const std::vector<ColumnRole>& roles_;
  const ResultRow& row_;
  const std::pair<Cell, Cell>& verdict_;
  size_t col_ = 0, next_ = 0;
};

void WriteRow(PyJsonWriter* w, const ResultTable& table, const std::vector<std::string>& header,
              const std::vector<ColumnRole>& roles, const ResultRow& row, const P2pColumns& p2p) {
  const std::pair<Cell, Cell> verdict = DaVerdictCells(row, table.mode);
  w->BeginObject();
  RowWriter cells(w, header, roles, row, verdict);
  VisitResultCells(row, table.mode, table.with_stack, &cells);
  w->Key("state");
  w->String(RowStateName(row.state));
  w->Key("api_origin_name");
  w->String(row.api);
  for (const auto& [key, value] : {std::pair{"NPU P2POp op", &p2p.npu_op}, std::pair{"Bench P2POp op", &p2p.bench_op},
                                   std::pair{"NPU P2POp peer", &p2p.npu_peer},
                                   std::pair{"Bench P2POp peer", &p2p.bench_peer}}) {
    w->Key(key);
    w->String(*value);
  }
  w->EndObject();
}

// The top-level members for checks [range.first, range.second), each after a newline and one
// indent as json.dump lays them out, inside "{" and "\n}" (the writer drops those).
std::string FormatChecks(const ResultTable& table, const std::vector<std::string>& header,
                         const std::vector<ColumnRole>& roles, const std::vector<P2pColumns>& p2p,
                         const std::vector<ApiCheck>& checks, std::pair<size_t, size_t> range) {
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
      WriteRow(&w, table, header, roles, table.rows[row_idx], p2p[row_idx]);
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndObject();
  return std::move(w).Finish();
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

Status WriteCompareResultJson(const std::string& path, const ResultTable& table, const std::vector<P2pColumns>& p2p,
                              const std::vector<ApiCheck>& checks) {
  if (p2p.size() != table.rows.size()) {
    return Status::Internal(path, "the P2POp columns do not cover the table's rows");
  }
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  const std::vector<std::string> header = table.Header();
  const std::vector<ColumnRole> roles = ColumnRoles(table, header);
  // The file is several times the dump: APIs are formatted in blocks on all cores and written in order.
  constexpr size_t kBlockRows = 4096;
  size_t next = 0;
  bool first_block = true;
  const Status status = internal::FormatBlocksInOrder(
      [&](internal::BlockRange* range) {
        range->first = next;
        for (size_t rows = 0; next < checks.size() && rows < kBlockRows; ++next) {
          rows += checks[next].end_row - checks[next].first_row;
        }
        range->second = next;
        return range->first < checks.size();
      },
      [&](internal::BlockRange range) { return FormatChecks(table, header, roles, p2p, checks, range); },
      [&](const std::string& block) {
        MSP_RETURN_IF_ERROR(file.Write(first_block ? "{" : ","));
        first_block = false;
        return file.Write(std::string_view(block).substr(1, block.size() - 3));  // the members alone
      });
  MSP_RETURN_IF_ERROR(status);
  MSP_RETURN_IF_ERROR(file.Write(first_block ? "{}" : "\n}"));  // json.dump's {} when there is no API
  return file.Commit();
}

}  // namespace msprobe::compare
