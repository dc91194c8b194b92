// A finished compare result: the rows in output (execution) order and what decides the columns.
// Every writer (csv_writer, xlsx_writer, json_writer) takes one.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/compare/table/op_row.h"
#include "msprobe/compare/table/result_row.h"

namespace msprobe::compare {

// --attribute (docs/ops.md §7): where an API's difference comes from, and the self errors it rests
// on, in units of each side's tolerance ("N/A" where no reference ran).
struct ApiAttribution {
  std::string origin;  // "op", "input", "inherited", "clean" or "unknown"
  Cell target_self_err, golden_self_err;
};
inline constexpr const char* kAttributionColumns[] = {"Origin", "NPU self err", "Bench self err"};
inline constexpr const char* kMatchColumn = "Match";

struct ResultTable {
  CompareMode mode = CompareMode::kSummary;
  bool with_stack = false;  // NPU_Stack_Info column (stack.json present)
  std::vector<ResultRow> rows;
  // The row -da named as the first diff (ours): the xlsx marks it and names it on its summary sheet.
  std::optional<size_t> first_diff_row;

  ResultLayout layout = ResultLayout::kCompare;  // kKernel: the kernel-dump compare's tables (kernel_compare.h)

  // --attribute: one per API; each row's `attribution` indexes it. Non-empty adds the three
  // kAttributionColumns after msprobe's, so readers by column name are unaffected.
  std::vector<ApiAttribution> attributions;
  std::optional<size_t> first_cause_row;  // the first row of the first API whose origin is op or input

  // --align: the kMatchColumn after msprobe's and --attribute's, each row's MatchText.
  bool with_match = false;

  std::vector<std::string> Header() const;
  // A row's cells in Header() order.
  void VisitCells(const ResultRow& row, ResultCellVisitor* visitor) const;
  std::vector<Cell> Cells(const ResultRow& row) const;
};

}  // namespace msprobe::compare
