#include "msprobe/compare/compare_result_json.h"

#include <utility>

#include "msprobe/compare/python_json.h"
#include "msprobe/dump/atomic_file.h"
#include "ordered_blocks_internal.h"

namespace msprobe::compare {
namespace {

constexpr int kIndent = 4;  // msprobe: save_json(file_path, check_result, indent=4)

void WriteRow(PyJsonWriter* w, const ResultTable& table, const std::vector<std::string>& header, const ResultRow& row,
              const P2pColumns& p2p) {
  const std::vector<Cell> cells = ResultCells(row, table.mode, table.with_stack);
  const auto [result, err_message] = DaVerdictCells(row, table.mode);
  w->BeginObject();
  for (size_t col = 0; col < header.size() && col < cells.size(); ++col) {
    w->Key(header[col]);
    const std::string& name = header[col];
    const bool stats_diff_col = table.mode == CompareMode::kSummary && col >= 8 && col < 16;
    if (stats_diff_col) {
      w->String(cells[col].ToPython());  // the diff columns reach the json as their str()
    } else if (name == "Result") {
      w->Value(result);
    } else if (name == "Err_message") {
      w->Value(err_message);
    } else if (name == "NPU_Stack_Info" && row.stack_info != "N/A") {
      if (auto lines = ParsePythonStrList(row.stack_info)) {
        w->StringList(*lines);
      } else {
        w->String(row.stack_info);
      }
    } else {
      w->Value(cells[col]);
    }
  }
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
// indent as json.dump lays them out, without the comma before the first.
std::string FormatChecks(const ResultTable& table, const std::vector<std::string>& header,
                         const std::vector<P2pColumns>& p2p, const std::vector<ApiCheck>& checks,
                         std::pair<size_t, size_t> range) {
  PyJsonWriter w(kIndent);
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
      WriteRow(&w, table, header, table.rows[row_idx], p2p[row_idx]);
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndObject();
  std::string& text = w.out();  // "{" + members + "\n}"
  return text.substr(1, text.size() - 3);
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
      [&](internal::BlockRange range) { return FormatChecks(table, header, p2p, checks, range); },
      [&](const std::string& members) {
        MSP_RETURN_IF_ERROR(file.Write(first_block ? "{" : ","));
        first_block = false;
        return file.Write(members);
      });
  MSP_RETURN_IF_ERROR(status);
  MSP_RETURN_IF_ERROR(file.Write(first_block ? "{}" : "\n}"));  // json.dump's {} when there is no API
  return file.Commit();
}

}  // namespace msprobe::compare
