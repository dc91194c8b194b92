// One row of a compare result and the exact msprobe G3 headers per mode (compare.md §4.1).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/metrics/verdict_kind.h"
#include "msprobe/compare/output/cell.h"
#include "msprobe/compare/rows/op_row.h"

namespace msprobe::compare {

// Tensor-mode metric columns, in header order.
enum TensorMetric : int { kCosine, kEucDist, kMaxAbsErr, kMaxRelativeErr, kOneThousandth, kFiveThousandths };
// Statistics-mode columns, in header order: 4 diffs then 4 relative errors.
enum StatsDiff : int { kMaxDiff, kMinDiff, kMeanDiff, kNormDiff, kMaxRel, kMinRel, kMeanRel, kNormRel };

struct ResultRow {
  std::string npu_name, bench_name;            // bench "N/A" when unmatched
  std::string npu_dtype, bench_dtype;
  std::string npu_shape, bench_shape;
  std::string npu_requires_grad, bench_requires_grad;  // "True", "False" or "N/A"
  // kTensor: 6 TensorMetric cells; kSummary: 8 StatsDiff cells; kMd5: NPU MD5, BENCH MD5.
  std::vector<Cell> metrics;
  std::array<Cell, 4> npu_stats, bench_stats;  // max, min, mean, l2norm (bench all "N/A" when unmatched)
  bool requires_grad_consistent = false;
  Verdict result = Verdict::kPass;
  std::vector<std::string> err_messages;       // JSON-dumped into Err_message
  std::string stack_info = "N/A";              // NPU_Stack_Info, only written when stack.json exists
  std::string npu_data_name = "-1", bench_data_name = "N/A";  // Data_name (tensor mode)
  // When not empty, the row's cells in the order of ResultTable::header, written instead of the fields
  // above (the kernel-dump compare's columns); result, npu_name and metrics still drive the xlsx marks.
  std::vector<Cell> cells;

  // Not written: what the verdict checkers and -da need.
  std::string api;         // api_origin_name of the NPU row
  RowState state = RowState::kInput;
  bool matched = false;
};

// The exact header of a result table (stack adds NPU_Stack_Info).
std::vector<std::string> ResultHeader(CompareMode mode, bool with_stack);
// Receives a row's cells in header order: the row's own strings as views, the rest as cells. Writers
// use it to format a row without copying it into cells first.
class ResultCellVisitor {
 public:
  virtual ~ResultCellVisitor() = default;
  virtual void Text(std::string_view text) = 0;
  virtual void Value(const Cell& cell) = 0;
};
void VisitResultCells(const ResultRow& row, CompareMode mode, bool with_stack, ResultCellVisitor* visitor);

// The row's cells in header order; Err_message rendered as json.dumps(list).
std::vector<Cell> ResultCells(const ResultRow& row, CompareMode mode, bool with_stack);

}  // namespace msprobe::compare
