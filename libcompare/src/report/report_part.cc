#include "msprobe/compare/report/report_part.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "msprobe/compare/output/summary_report.h"

namespace msprobe::compare {
namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// The number in a relative-error text "12.3%", if that is what it is.
bool ParsePercent(std::string_view text, double* value) {
  if (text.size() < 2 || text.back() != '%') return false;
  text.remove_suffix(1);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

ReportPart::ReportPart(std::string label, CompareMode mode, std::string construct_json)
    : label_(std::move(label)), mode_(mode), construct_json_(std::move(construct_json)) {
  for (std::string& name : MetricColumnNames(mode)) metrics_.push_back({std::move(name), false, {}, {}});
}

uint32_t ReportPart::ApiIndex(const std::string& api) {
  auto [it, added] = api_index_.try_emplace(api, static_cast<uint32_t>(apis_.size()));
  if (added) apis_.push_back(api);
  return it->second;
}

void ReportPart::AddMetric(size_t column, const Cell& cell, uint32_t row) {
  ReportMetricColumn& c = metrics_[column];
  double value = kNoValue;
  if (cell.is_number() && !std::isnan(cell.number())) {
    value = cell.number();
  } else if (cell.is_text() && ParsePercent(cell.text(), &value)) {
    c.percent = true;
  } else {
    c.texts.emplace_back(row, strings_.Intern(cell.is_text() ? cell.text() : cell.ToPython()));
  }
  c.values.push_back(value);
}

void ReportPart::AddRow(const ResultRow& row) {
  const auto index = static_cast<uint32_t>(verdicts_.size());
  const uint32_t api = ApiIndex(row.api);
  api_of_row_.push_back(api);
  const bool prefixed = !row.api.empty() && row.npu_name.starts_with(row.api);
  tails_.push_back(strings_.Intern(prefixed ? std::string_view(row.npu_name).substr(row.api.size()) : row.npu_name));
  whole_names_.push_back(prefixed ? 0 : 1);
  if (row.bench_name != row.npu_name) bench_names_.emplace_back(index, strings_.Intern(row.bench_name));
  dtypes_.push_back(strings_.Intern(row.npu_dtype));
  shapes_.push_back(strings_.Intern(row.npu_shape));
  err_messages_.push_back(strings_.Intern(ErrMessageText(row, ResultLayout::kCompare)));
  verdicts_.push_back(static_cast<uint8_t>(row.result));  // 0 pass, 1 warning, 2 error
  const std::optional<double> main = MainMetric(row, mode_);
  main_metric_.push_back(!main ? kNoValue : mode_ == CompareMode::kTensor ? 1 - *main : std::abs(*main));
  for (size_t i = 0; i < metrics_.size(); ++i) {
    AddMetric(i, i < row.metrics.size() ? row.metrics[i] : Cell::NA(), index);
  }
}

}  // namespace msprobe::compare
