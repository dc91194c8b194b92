#include "msprobe/compare/report/report_part.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "msprobe/compare/output/json_writer.h"
#include "msprobe/compare/output/summary_report.h"
#include "msprobe/dump/util/coding.h"
#include "msprobe/compare/table/result_table.h"

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

ReportColumns CompareReportColumns(CompareMode mode) {
  const char* main = mode == CompareMode::kTensor ? "1 - Cosine" : mode == CompareMode::kSummary ? "|NormRelativeErr|" : "";
  return {DumpModeName(mode), MetricColumnNames(mode), main};
}

ReportPart::ReportPart(std::string label, ReportColumns columns, std::string construct_json)
    : label_(std::move(label)), kind_(std::move(columns.kind)), main_metric_label_(std::move(columns.main_metric)),
      construct_json_(std::move(construct_json)) {
  for (std::string& name : columns.metrics) metrics_.push_back({std::move(name), false, {}, {}});
}

ReportPart::ReportPart(std::string label, CompareMode mode, std::string construct_json, bool with_match)
    : ReportPart(std::move(label), CompareReportColumns(mode), std::move(construct_json)) {
  mode_ = mode;
  with_match_ = with_match;
  // The page shows every metric column as it comes, so a page without the column is what it was.
  if (with_match) metrics_.push_back({kMatchColumn, false, {}, {}});
}

void ReportPart::AddMetric(size_t column, const Cell& cell, uint32_t row) {
  ReportMetricColumn& c = metrics_[column];
  double value = kNoValue;
  if (cell.is_number() && !std::isnan(cell.number())) {
    value = cell.number();
  } else if (cell.is_text() && ParsePercent(cell.text(), &value)) {
    c.percent = true;
  } else {
    value = kNoValue;  // ParsePercent may have read a prefix of a text that is not a percentage
    c.texts.emplace_back(row, strings_.Intern(cell.is_text() ? cell.text() : cell.ToPython()));
  }
  c.values.push_back(value);
}

void ReportPart::AddRow(const ReportRow& row) {
  const auto index = static_cast<uint32_t>(verdicts_.size());
  api_of_row_.push_back(apis_.Intern(row.api, &last_api_));  // an API's rows are consecutive
  const bool prefixed = !row.api.empty() && row.target_name.starts_with(row.api);
  tails_.push_back(strings_.Intern(prefixed ? row.target_name.substr(row.api.size()) : row.target_name));
  whole_names_.push_back(prefixed ? 0 : 1);
  if (row.golden_name != row.target_name) golden_names_.emplace_back(index, strings_.Intern(row.golden_name));
  dtypes_.push_back(strings_.Intern(row.dtype, &last_dtype_));
  shapes_.push_back(strings_.Intern(row.shape, &last_shape_));
  err_messages_.push_back(strings_.Intern(row.err_message, &last_err_));
  verdicts_.push_back(static_cast<uint8_t>(row.verdict));  // 0 pass, 1 warning, 2 error
  main_metric_.push_back(row.main_metric);
  for (size_t i = 0; i < metrics_.size(); ++i) AddMetric(i, i < row.metrics.size() ? row.metrics[i] : Cell::NA(), index);
}

void ReportPart::AddRow(const ResultRow& row) {
  const std::optional<double> main = MainMetric(row, *mode_);
  const std::string err = ErrMessageText(row, ResultLayout::kCompare);
  const double charted = !main ? kNoValue : *mode_ == CompareMode::kTensor ? 1 - *main : std::abs(*main);
  if (!with_match_) {
    AddRow(ReportRow{row.target_name, row.golden_name, row.api, row.target_dtype, row.target_shape, err, row.result,
                     charted, row.metrics});
    return;
  }
  std::vector<Cell> cells = row.metrics;
  cells.push_back(Cell::Text(MatchText(row.match_origin, row.align_score)));
  AddRow(ReportRow{row.target_name, row.golden_name, row.api, row.target_dtype, row.target_shape, err, row.result,
                   charted, cells});
}

namespace {

// (row, StringPool index): a text of a metric column, a row's Bench Name.
void PutIndexPair(std::string* dst, const std::pair<uint32_t, uint32_t>& pair) {
  PutVarint32(dst, pair.first);
  PutVarint32(dst, pair.second);
}
bool GetIndexPair(Decoder* in, std::pair<uint32_t, uint32_t>* pair) {
  return GetVarint32(in, &pair->first) && GetVarint32(in, &pair->second);
}

void PutMetricColumn(std::string* dst, const ReportMetricColumn& c) {
  PutString(dst, c.name);
  PutBool(dst, c.percent);
  PutVector(dst, c.values, PutDouble);
  PutVector(dst, c.texts, PutIndexPair);
}

bool GetMetricColumn(Decoder* in, ReportMetricColumn* c) {
  return GetString(in, &c->name) && GetBool(in, &c->percent) && GetVector(in, &c->values, GetDouble) &&
         GetVector(in, &c->texts, GetIndexPair);
}

// A byte per row (its verdict, whether its name is whole) as one string.
void PutBytes(std::string* dst, const std::vector<uint8_t>& bytes) {
  PutString(dst, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}
bool GetBytes(Decoder* in, std::vector<uint8_t>* bytes) {
  std::string s;
  if (!GetString(in, &s)) return false;
  bytes->assign(s.begin(), s.end());
  return true;
}

// A pool's strings, interned in order: a string twice would shift every later index.
bool GetPool(Decoder* in, StringPool* pool) {
  std::vector<std::string> strings;
  if (!GetVector(in, &strings, GetString)) return false;
  for (size_t i = 0; i < strings.size(); ++i) {
    if (pool->Intern(strings[i]) != i) return in->Fail("a string twice in a part's pool");
  }
  return true;
}

}  // namespace

void PutReportPart(std::string* dst, const ReportPart& p) {
  for (const std::string* s : {&p.label_, &p.kind_, &p.main_metric_label_, &p.construct_json_}) PutString(dst, *s);
  PutOptional(dst, p.mode_, PutEnum<CompareMode>);
  PutVector(dst, p.strings_.strings(), PutString);
  PutVector(dst, p.apis_.strings(), PutString);
  for (const std::vector<uint32_t>* v : {&p.api_of_row_, &p.tails_, &p.dtypes_, &p.shapes_, &p.err_messages_}) {
    PutVector(dst, *v, PutVarint32);
  }
  PutBytes(dst, p.whole_names_);
  PutBytes(dst, p.verdicts_);
  PutVector(dst, p.golden_names_, PutIndexPair);
  PutVector(dst, p.main_metric_, PutDouble);
  PutVector(dst, p.metrics_, PutMetricColumn);
}

bool GetReportPart(Decoder* in, std::optional<ReportPart>* part) {
  std::string label, kind, main_metric_label, construct_json;
  if (!GetString(in, &label) || !GetString(in, &kind) || !GetString(in, &main_metric_label) ||
      !GetString(in, &construct_json)) {
    return false;
  }
  ReportPart& p = part->emplace(std::move(label), ReportColumns{std::move(kind), {}, std::move(main_metric_label)},
                                std::move(construct_json));
  if (!GetOptional(in, &p.mode_, [](Decoder* in, CompareMode* mode) { return GetEnum(in, mode, CompareMode::kMd5); }) ||
      !GetPool(in, &p.strings_) || !GetPool(in, &p.apis_)) {
    return false;
  }
  for (std::vector<uint32_t>* v : {&p.api_of_row_, &p.tails_, &p.dtypes_, &p.shapes_, &p.err_messages_}) {
    if (!GetVector(in, v, GetVarint32)) return false;
  }
  return GetBytes(in, &p.whole_names_) && GetBytes(in, &p.verdicts_) && GetVector(in, &p.golden_names_, GetIndexPair) &&
         GetVector(in, &p.main_metric_, GetDouble) && GetVector(in, &p.metrics_, GetMetricColumn);
}

}  // namespace msprobe::compare
