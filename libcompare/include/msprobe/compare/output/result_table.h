// A finished compare result: the rows in output (execution) order and what decides the columns.
// Every writer (csv_writer, xlsx_writer, json_writer) takes one.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "msprobe/compare/rows/op_row.h"
#include "msprobe/compare/output/result_row.h"

namespace msprobe::compare {

struct ResultTable {
  CompareMode mode = CompareMode::kSummary;
  bool with_stack = false;  // NPU_Stack_Info column (stack.json present)
  std::vector<ResultRow> rows;
  // The row -da named as the first diff (ours): the xlsx marks it and names it on its summary sheet.
  std::optional<size_t> first_diff_row;

  ResultLayout layout = ResultLayout::kCompare;  // kKernel: the kernel-dump compare's tables (kernel_compare.h)

  std::vector<std::string> Header() const { return ResultHeader(mode, with_stack, layout); }
  // A row's cells in Header() order.
  void VisitCells(const ResultRow& row, ResultCellVisitor* visitor) const {
    VisitResultCells(row, mode, with_stack, layout, visitor);
  }
  std::vector<Cell> Cells(const ResultRow& row) const { return ResultCells(row, mode, with_stack, layout); }
};

}  // namespace msprobe::compare
