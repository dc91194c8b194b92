// One row of a compare result and the exact columns it is written as: msprobe G3's per mode
// (docs/compare.md §4.1), or the kernel-dump compare's (docs/kernel_dump.md §6.4).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/table/verdict_kind.h"
#include "msprobe/compare/table/cell.h"
#include "msprobe/compare/table/op_row.h"

namespace msprobe::compare {

// Tensor-mode metric columns, in header order.
enum TensorMetric : int { kCosine, kEucDist, kMaxAbsErr, kMaxRelativeErr, kOneThousandth, kFiveThousandths };
// Statistics-mode columns, in header order: 4 diffs then 4 relative errors.
enum StatsDiff : int { kMaxDiff, kMinDiff, kMeanDiff, kNormDiff, kMaxRel, kMinRel, kMeanRel, kNormRel };

// Which table the rows are written as. kKernel's columns map to a row's fields this way:
//   NPU/Bench Name, Dtype, Tensor Shape   target_/golden_name, _dtype, _shape
//   NPU/Bench max, min, mean, l2norm       target_stats, golden_stats
//   Accuracy Reached or Not                accuracy
//   Err_message                            err_messages, concatenated (each ends in its own "\n")
//   the mode's metrics                     metrics (kTensor: 6 TensorMetric, kSummary: 8 StatsDiff)
//   NPU/Bench CSV File (kSummary only)     target_data_name, golden_data_name
enum class ResultLayout : uint8_t { kCompare, kKernel };

// G2's "Accuracy Reached or Not" (docs/compare.md §5.2), the kernel-dump compare's verdict column;
// kNotChecked is written as the empty text.
enum class Accuracy : uint8_t { kNotChecked, kYes, kNo, kNone, kUnmatched };
std::string_view AccuracyName(Accuracy accuracy);

// How a row found its golden row, for --align's Match column (ours, docs/compare.md §3.8): by name
// (backward renumbering included), by -fm's queue or a mapping (-dm, -cm, -am, -lm) where the two
// names differ, by --align, or not at all.
enum class MatchOrigin : uint8_t { kName, kFuzzy, kMapping, kAligned, kUnmatched };
// The Match cell: "name", "fuzzy", "mapping", "aligned (0.93)" (with the call pair's score) or "unmatched".
std::string MatchText(MatchOrigin origin, float align_score);

struct ResultRow {
  std::string target_name, golden_name;        // golden "N/A" when unmatched
  std::string target_dtype, golden_dtype;
  std::string target_shape, golden_shape;
  std::string target_requires_grad, golden_requires_grad;  // "True", "False" or "N/A"
  // kTensor: 6 TensorMetric cells; kSummary: 8 StatsDiff cells; kMd5: NPU MD5, BENCH MD5.
  std::vector<Cell> metrics;
  std::array<Cell, 4> target_stats, golden_stats;  // max, min, mean, l2norm (golden all "N/A" when unmatched)
  bool requires_grad_consistent = false;
  Verdict result = Verdict::kPass;
  Accuracy accuracy = Accuracy::kNotChecked;   // kernel layout only
  std::vector<std::string> err_messages;       // JSON-dumped into Err_message
  std::string stack_info = "N/A";              // NPU_Stack_Info, only written when stack.json exists
  std::string target_data_name = "-1", golden_data_name = "N/A";  // Data_name (tensor mode)

  // Not written: what the verdict checkers and -da need.
  std::string api;         // api_origin_name of the target row
  RowState state = RowState::kInput;
  bool matched = false;
  // Tensor mode: a tensor file of the row (either side) was missing, refused or unreadable. msprobe
  // writes such a row as "unsupported" with Result pass; it was not compared (docs/compare.md §5.4).
  bool unreadable = false;
  // A golden row that no target row matched, written on a row of its own (the kernel-dump compare and
  // --consistent_check keep both sides whole; msprobe's compare drops such rows).
  bool golden_only = false;
  int32_t attribution = -1;  // --attribute: the index of the row's API in ResultTable::attributions
  MatchOrigin match_origin = MatchOrigin::kName;  // --align: ResultTable::with_match writes it
  float align_score = 0;                          // kAligned: the score of the row's call pair
  // Tensor mode: rows of the squeezed target tensor from this one on are read as zeros (MoE scratch rows,
  // rows/scratch_rows.h); -1 reads them all.
  int64_t target_valid_rows = -1;

  // Compared with a golden counterpart: matched, and its tensors read. Only such a row counts as a pass
  // in our reports, whatever its Result says.
  bool Compared() const { return matched && !unreadable; }
};

// The exact header of a result table (stack adds NPU_Stack_Info to the kCompare layout).
std::vector<std::string> ResultHeader(CompareMode mode, bool with_stack, ResultLayout layout = ResultLayout::kCompare);
// The names of ResultRow::metrics in the kCompare layout, as the header spells them.
std::vector<std::string> MetricColumnNames(CompareMode mode);
// Receives a row's cells in header order: the row's own strings as views, the rest as cells. Writers
// use it to format a row without copying it into cells first.
class ResultCellVisitor {
 public:
  virtual ~ResultCellVisitor() = default;
  virtual void Text(std::string_view text) = 0;
  virtual void Value(const Cell& cell) = 0;
  // Data_name: a Python list in msprobe's table, rendered as text. msprobe's csv writer looks at
  // strings only for formulas, so writers that defuse texts leave this one as it is.
  virtual void ListText(std::string_view text) { Text(text); }
};
void VisitResultCells(const ResultRow& row, CompareMode mode, bool with_stack, ResultLayout layout,
                      ResultCellVisitor* visitor);

// The row's Err_message cell as written: json.dumps(err_messages) in the kCompare layout, the messages
// concatenated in the kKernel layout. Gates, summary.json and JUnit quote it as the tables show it.
std::string ErrMessageText(const ResultRow& row, ResultLayout layout);

// The row's cells in header order; kCompare's Err_message rendered as json.dumps(list).
std::vector<Cell> ResultCells(const ResultRow& row, CompareMode mode, bool with_stack, ResultLayout layout);

// A row in a message between processes (coding.h), every field.
void PutResultRow(std::string* dst, const ResultRow& row);
[[nodiscard]] bool GetResultRow(Decoder* in, ResultRow* row);

}  // namespace msprobe::compare
