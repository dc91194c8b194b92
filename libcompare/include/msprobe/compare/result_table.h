// A finished compare result: the rows in output (execution) order and what decides the columns.
// Every writer (csv_writer, xlsx_writer, json_writer) takes one.
#pragma once

#include <vector>

#include "msprobe/compare/op_row.h"
#include "msprobe/compare/result_row.h"

namespace msprobe::compare {

struct ResultTable {
  CompareMode mode = CompareMode::kSummary;
  bool with_stack = false;  // NPU_Stack_Info column (stack.json present)
  std::vector<ResultRow> rows;

  std::vector<std::string> Header() const { return ResultHeader(mode, with_stack); }
};

}  // namespace msprobe::compare
