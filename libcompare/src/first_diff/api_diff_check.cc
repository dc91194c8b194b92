#include "msprobe/compare/first_diff/api_diff_check.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "msprobe/compare/metrics/stats_diff.h"
#include "msprobe/dump/text/python_parse.h"

namespace msprobe::compare {
namespace {

// A "%" relative error above the threshold: float(v[:-1]) / 100 > 0.5. Other texts never differ.
bool RelativeErrDiffers(const Cell& cell) {
  if (!cell.is_text() || cell.text().empty() || cell.text().back() != '%') return false;
  const std::optional<double> v = PythonFloat(std::string_view(cell.text()).substr(0, cell.text().size() - 1));
  return v && *v / 100 > kDiffAnalyzeRelativeErrThreshold;
}

bool OutputDiffers(const ResultRow& row, CompareMode mode) {
  if (mode == CompareMode::kMd5) return DaVerdictCells(row, mode).first.IsText("Different");
  for (int metric : {kMaxRel, kMinRel, kMeanRel, kNormRel}) {
    if (static_cast<size_t>(metric) < row.metrics.size() && RelativeErrDiffers(row.metrics[metric])) return true;
  }
  return false;
}

size_t CountDots(std::string_view s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '.')); }

// name.split('.')[-3], or "" when there are fewer than 3 parts.
std::string_view ThirdFromLast(std::string_view name) {
  size_t end = name.size();
  for (int k = 0; k < 2; ++k) {
    end = name.rfind('.', end == 0 ? 0 : end - 1);
    if (end == std::string_view::npos) return {};
  }
  const size_t dot = end == 0 ? std::string_view::npos : name.rfind('.', end - 1);
  const size_t begin = dot == std::string_view::npos ? 0 : dot + 1;
  return name.substr(begin, end - begin);
}

const std::vector<size_t>* IgnoredOutputsOf(std::string_view api) {
  for (const IgnoredOutputs& ignored : DiffAnalyzeIgnoredOutputs()) {
    if (api == ignored.api) return &ignored.output_indices;
  }
  return nullptr;
}

// Const.REGEX_FORWARD_BACKWARD, \.(forward|backward)\. (a plain search: it runs once per batch).
bool IsForwardOrBackwardKey(std::string_view key) {
  return key.find(".forward.") != std::string_view::npos || key.find(".backward.") != std::string_view::npos;
}

ApiCheck CheckBatch(const ResultTable& table, std::string api, size_t first, size_t end) {
  ApiCheck check{std::move(api), true, first, end, std::nullopt};
  const std::vector<size_t>* ignored = IgnoredOutputsOf(ThirdFromLast(check.api));
  size_t output_idx = 0;
  for (size_t row_idx = first; row_idx < end; ++row_idx) {
    const ResultRow& row = table.rows[row_idx];
    if (row.state != RowState::kOutput) continue;
    const size_t this_output = output_idx++;
    if (ignored && std::find(ignored->begin(), ignored->end(), this_output) != ignored->end()) continue;
    if (OutputDiffers(row, table.mode)) {
      check.is_same = false;
      if (!check.diff_row) check.diff_row = row_idx;
    }
  }
  return check;
}

}  // namespace

const std::vector<IgnoredOutputs>& DiffAnalyzeIgnoredOutputs() {
  static const std::vector<IgnoredOutputs> kIgnored = {{"npu_fusion_attention", {4, 5}}};
  return kIgnored;
}

bool JoinsBatch(std::string_view batch_api, std::string_view api) {
  return api == batch_api || (!IsForwardOrBackwardKey(api) && batch_api.find(api) != std::string_view::npos);
}

std::vector<ApiCheck> CheckApis(const ResultTable& table) {
  // The batches in order (runs of rows of one API, as msprobe groups them), then their checks on
  // all cores, then msprobe's dict: a later batch of an API replaces the earlier check in its place.
  std::vector<std::pair<size_t, size_t>> batches;
  size_t first = 0;
  for (size_t row_idx = 1; row_idx <= table.rows.size(); ++row_idx) {
    if (row_idx < table.rows.size()) {
      if (JoinsBatch(table.rows[first].api, table.rows[row_idx].api)) continue;
    }
    // Fewer than 4 parts: msprobe skips the batch.
    if (!table.rows.empty() && CountDots(table.rows[first].api) >= 3) batches.emplace_back(first, row_idx);
    first = row_idx;
  }
  std::vector<ApiCheck> checked(batches.size());
  tbb::parallel_for(size_t{0}, batches.size(), [&](size_t i) {
    const auto [begin, end] = batches[i];
    checked[i] = CheckBatch(table, table.rows[begin].api, begin, end);
  });
  std::vector<ApiCheck> checks;
  std::unordered_map<std::string_view, size_t> position;  // views of the table's API names
  for (size_t i = 0; i < batches.size(); ++i) {
    const auto [it, inserted] = position.emplace(table.rows[batches[i].first].api, checks.size());
    if (inserted) checks.push_back(std::move(checked[i]));
    else checks[it->second] = std::move(checked[i]);
  }
  return checks;
}

std::pair<Cell, Cell> DaVerdictCells(const ResultRow& row, CompareMode mode) {
  const bool unmatched = IsUnmatched(row);
  if (mode == CompareMode::kMd5) {
    const bool equal = row.metrics.size() >= 2 && row.metrics[0] == row.metrics[1];
    if (unmatched) return {Cell::Text(equal ? "pass" : "N/A"), Cell::Text("No bench data matched.")};
    return {Cell::Text(equal ? "pass" : "Different"), Cell::Float(std::numeric_limits<double>::quiet_NaN())};
  }
  std::string message = unmatched ? "No bench data matched." : "";
  if (!row.requires_grad_consistent) message += "Requires_grad inconsistent. ";
  return {Cell::Text(unmatched ? "N/A" : ""), Cell::Text(std::move(message))};
}

}  // namespace msprobe::compare
