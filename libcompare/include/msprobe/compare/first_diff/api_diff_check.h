// The per-API diff check of msprobe's -da (docs/compare.md §8.1, FirstDiffAnalyze.check): rows are cut
// into API batches, and a batch differs when one of its output rows has a relative error above the
// threshold (statistics) or Result "Different" (md5).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "msprobe/compare/table/cell.h"
#include "msprobe/compare/table/result_table.h"

namespace msprobe::compare {

// diff_analyze_threshold.yaml: MaxRelativeErr, MinRelativeErr, MeanRelativeErr and NormRelativeErr
// above 0.5 (as a fraction of the "%" text) mark an output as different (docs/compare.md §8.1).
inline constexpr double kDiffAnalyzeRelativeErrThreshold = 0.5;
// ignore_op_list.yaml: output indices not checked, by API name (the third-from-last key part).
struct IgnoredOutputs {
  const char* api;
  std::vector<size_t> output_indices;
};
const std::vector<IgnoredOutputs>& DiffAnalyzeIgnoredOutputs();  // {npu_fusion_attention: [4, 5]}

struct ApiCheck {
  std::string api;                     // the batch's key (api_origin_name of its first row)
  bool is_same = true;
  size_t first_row = 0, end_row = 0;   // the batch's rows [first_row, end_row) in the table
  std::optional<size_t> diff_row;      // ours: the first output row that made it differ
};

// gen_api_batches + check: consecutive rows with the same api_origin_name form a batch (a key that
// is neither forward nor backward and is part of the previous key joins it); keys of fewer than 4
// dot-separated parts are skipped. A key seen twice keeps its first place and its last batch, as a
// Python dict does.
std::vector<ApiCheck> CheckApis(const ResultTable& table);
// Whether a row of `api` joins the batch of `batch_api` that runs up to it.
bool JoinsBatch(std::string_view batch_api, std::string_view api);

// The Result and Err_message msprobe's -da table holds for a row (its statistics-table verdicts,
// before G3's checkers): statistics: "" and "" (+ "Requires_grad inconsistent. "), unmatched "N/A"
// and "No bench data matched." (+ the same); md5: "pass" / "Different" / "N/A" with Err_message
// NaN for matched rows (never filled).
std::pair<Cell, Cell> DaVerdictCells(const ResultRow& row, CompareMode mode);

}  // namespace msprobe::compare
