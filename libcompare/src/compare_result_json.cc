#include "msprobe/compare/compare_result_json.h"

#include "msprobe/compare/python_json.h"
#include "msprobe/dump/atomic_file.h"

namespace msprobe::compare {
namespace {

constexpr size_t kFlushBytes = 1 << 22;
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
  PyJsonWriter w(kIndent);
  const std::vector<std::string> header = table.Header();
  w.BeginObject();
  for (const ApiCheck& check : checks) {
    w.Key(check.api);
    w.BeginObject();
    w.Key("is_same");
    w.Bool(check.is_same);
    w.Key("op_items");
    w.BeginArray();
    for (size_t row_idx = check.first_row; row_idx < check.end_row; ++row_idx) {
      WriteRow(&w, table, header, table.rows[row_idx], p2p[row_idx]);
      if (w.out().size() >= kFlushBytes) {
        MSP_RETURN_IF_ERROR(file.Write(w.out()));
        w.out().clear();
      }
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndObject();
  MSP_RETURN_IF_ERROR(file.Write(w.out()));
  return file.Commit();
}

}  // namespace msprobe::compare
