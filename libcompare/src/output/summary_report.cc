#include "msprobe/compare/output/summary_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "msprobe/compare/metrics/kernel_accuracy.h"
#include "msprobe/compare/output/compare_report.h"
#include "msprobe/compare/output/not_compared.h"
#include "msprobe/compare/output/row_place.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/util/coding.h"

namespace msprobe::compare {
namespace {

constexpr int kIndent = 2;

using Json = nlohmann::ordered_json;  // members in the order written: people read summary.json

// A row reference where the pair's files hold it (row_place.h).
Json RowRefJson(const PairResult& pair, const RowRef& ref) {
  const RowPlace place = LocateRow(pair, ref.row);
  Json j = {{"file", place.file}, {"row", place.row}};
  if (!place.sheet.empty()) j["sheet"] = place.sheet;
  j["npu_name"] = ref.target_name;
  j["api"] = ref.api;
  j["result"] = VerdictName(ref.result);
  j["err_message"] = ref.err_message;
  return j;
}

Json OptionalRowRefJson(const PairResult& pair, const std::optional<RowRef>& ref) {
  return ref ? RowRefJson(pair, *ref) : Json(nullptr);
}

Json OptionalText(const std::string& text) { return text.empty() ? Json(nullptr) : Json(text); }

// Strict JSON has no infinity: an infinite metric is written as the string "inf".
Json MetricJson(double v) {
  if (std::isfinite(v)) return v;
  return v > 0 ? "inf" : "-inf";
}

// The counts of a pair, or of the run (the sums over its pairs).
struct Counts {
  uint64_t rows = 0, passed = 0, warnings = 0, errors = 0, unmatched_target = 0, unmatched_golden = 0, unreadable = 0;
  void Add(const PairResult& pair) {
    rows += pair.rows, passed += pair.passed, warnings += pair.warnings, errors += pair.errors;
    unmatched_target += pair.unmatched.target, unmatched_golden += pair.unmatched.golden;
    unreadable += pair.unreadable_tensors;
  }
  Json ToJson() const {
    return {{"rows", rows},
            {"pass", passed},
            {"warning", warnings},
            {"error", errors},
            {"unmatched_target", unmatched_target},
            {"unmatched_golden", unmatched_golden},
            {"unreadable_tensors", unreadable}};
  }
};

Json FirstDiffJson(const CompareReport& report) {
  if (!report.diff_analyzed) return nullptr;
  Json nodes = Json::array();
  for (size_t i = 0; i < report.first_diff.nodes.size(); ++i) {
    const RowRef& node = report.first_diff.nodes[i];
    const PairResult* pair = PairOfRowFile(report, node.file);
    nodes.push_back({{"rank", report.first_diff.ranks[i]}, {"row", pair ? RowRefJson(*pair, node) : Json(nullptr)}});
  }
  return {{"stage", DiffStageName(report.first_diff.stage)},
          {"analyze_file", OptionalText(report.first_diff.analyze_file)},
          {"nodes", std::move(nodes)}};
}

Json FirstCauseJson(const PairResult& pair) {
  if (!pair.first_cause) return nullptr;
  const FirstCause& cause = *pair.first_cause;
  const RowPlace place = LocateRow(pair, cause.row);
  return {{"api", cause.api},
          {"kind", cause.kind},
          {"argument", cause.argument ? Json(*cause.argument) : Json(nullptr)},
          {"file", place.file},
          {"row", place.row}};
}

Json UnmatchedJson(const PairResult& pair) {
  return {{"target_rows", pair.unmatched.target},
          {"golden_rows", pair.unmatched.golden},
          {"first_target", OptionalRowRefJson(pair, pair.unmatched.first_target)},
          {"first_golden", OptionalText(pair.unmatched.first_golden)}};
}

Json WorstJson(const PairResult& pair) {
  Json worst = Json::array();
  for (const WorstRow& row : pair.worst) {
    const RowPlace place = LocateRow(pair, row.row);
    worst.push_back({{"file", place.file},
                     {"row", place.row},
                     {"npu_name", row.target_name},
                     {"value", MetricJson(row.value)},
                     {"result", VerdictName(row.result)}});
  }
  return worst;
}

Json PairJson(const PairResult& pair, bool attribute) {
  Json j = {{"label", pair.label},
            {"target_json", pair.target_json},
            {"golden_json", pair.golden_json},
            {"mode", pair.mode},
            {"outputs", pair.outputs}};
  if (!pair.skipped_reason.empty()) j["skipped"] = pair.skipped_reason;
  j["streamed"] = pair.streamed;
  Counts counts;
  counts.Add(pair);
  j["counts"] = counts.ToJson();
  j["matched_rows"] = pair.matched_rows;
  j["golden_rows"] = pair.golden_rows;
  j["unmatched"] = UnmatchedJson(pair);
  if (pair.mode == "ALL") {
    j["unreadable_tensors"] = {{"rows", pair.unreadable_tensors}, {"first", OptionalText(pair.first_unreadable)}};
  }
  if (attribute) j["first_cause"] = FirstCauseJson(pair);
  j["first_error"] = OptionalRowRefJson(pair, pair.first_error);
  j["worst_metric"] = pair.mode == "ALL" ? "Cosine" : pair.mode == "SUMMARY" ? "NormRelativeErr" : "";
  j["worst"] = WorstJson(pair);
  return j;
}

}  // namespace

RowRef MakeRowRef(const ResultTable& table, size_t row, const std::string& file) {
  const ResultRow& r = table.rows[row];
  return {file, row, r.target_name, r.api, r.result, VerdictReason(r, table.mode, table.layout)};
}

std::optional<double> MainMetric(const ResultRow& row, CompareMode mode) {
  const int index = mode == CompareMode::kTensor ? static_cast<int>(kCosine) : static_cast<int>(kNormRel);
  if (mode == CompareMode::kMd5 || static_cast<size_t>(index) >= row.metrics.size()) return std::nullopt;
  const Cell& cell = row.metrics[index];
  if (cell.is_number()) return std::isnan(cell.number()) ? std::nullopt : std::optional<double>(cell.number());
  if (!cell.is_text() || cell.text().empty()) return std::nullopt;
  if (cell.text() == "inf") return HUGE_VAL;
  std::string_view digits = cell.text();
  const bool percent = digits.back() == '%';
  if (percent) digits.remove_suffix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || end != digits.data() + digits.size() || std::isnan(v)) return std::nullopt;
  return percent ? v / 100 : v;
}

const char* MainMetricName(CompareMode mode) {
  switch (mode) {
    case CompareMode::kTensor: return "Cosine";
    case CompareMode::kSummary: return "NormRelativeErr";
    case CompareMode::kMd5: return "";
  }
  return "";
}

namespace {

// Worse first: a low Cosine is bad, a high error is; ties in row order.
bool Worse(CompareMode mode, size_t row_a, double a, size_t row_b, double b) {
  if (a != b) return mode == CompareMode::kTensor ? a < b : a > b;
  return row_a < row_b;
}

}  // namespace

std::vector<WorstRow> WorstRows(const ResultTable& table, size_t n) {
  // Ranks (row, value) pairs and names only the rows kept: the table may hold millions.
  std::vector<std::pair<size_t, double>> ranked;
  for (size_t row = 0; row < table.rows.size(); ++row) {
    if (const std::optional<double> v = MainMetric(table.rows[row], table.mode)) ranked.emplace_back(row, *v);
  }
  const auto worse = [&](const std::pair<size_t, double>& a, const std::pair<size_t, double>& b) {
    return Worse(table.mode, a.first, a.second, b.first, b.second);
  };
  const size_t keep = std::min(n, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(keep), ranked.end(), worse);
  std::vector<WorstRow> rows;
  for (size_t i = 0; i < keep; ++i) {
    const ResultRow& r = table.rows[ranked[i].first];
    rows.push_back({ranked[i].first, r.target_name, r.result, ranked[i].second});
  }
  return rows;
}

void KeepWorst(std::vector<WorstRow>* rows, CompareMode mode, size_t n) {
  std::sort(rows->begin(), rows->end(),
            [mode](const WorstRow& a, const WorstRow& b) { return Worse(mode, a.row, a.value, b.row, b.value); });
  if (rows->size() > n) rows->resize(n);
}

Status WriteSummaryJson(const std::string& path, const SummaryInputs& inputs, const CompareReport& report,
                        const Status& failure) {
  Counts counts;
  Json first_error = nullptr, first_cause = nullptr;
  Json pairs = Json::array();
  for (const PairResult& pair : report.pairs) {
    counts.Add(pair);
    if (first_error.is_null() && pair.first_error) first_error = RowRefJson(pair, *pair.first_error);
    if (first_cause.is_null() && pair.first_cause) first_cause = FirstCauseJson(pair);
    pairs.push_back(PairJson(pair, inputs.attribute));
  }
  Json summary = {{"tool", "msprobe-compare"},
                  {"version", inputs.tool_version},
                  {"inputs",
                   {{"target_path", inputs.target_path},
                    {"golden_path", inputs.golden_path},
                    {"diff_analyze", inputs.diff_analyze}}}};
  if (!failure.ok()) summary["error"] = failure.ToString();  // the run stopped: the pairs are those done
  summary["counts"] = counts.ToJson();
  const std::optional<std::string> first_not_compared = FirstNotCompared(report.pairs);
  summary["not_compared"] = {{"rows", counts.unmatched_target + counts.unmatched_golden + counts.unreadable},
                             {"first", first_not_compared ? Json(*first_not_compared) : Json(nullptr)}};
  if (!report.skipped_inputs.empty()) summary["not_compared"]["inputs"] = report.skipped_inputs;
  if (inputs.attribute) summary["first_cause"] = std::move(first_cause);
  summary["first_error"] = std::move(first_error);
  summary["first_diff"] = FirstDiffJson(report);
  if (!report.html_file.empty()) summary["html_report"] = report.html_file;  // --html
  summary["pairs"] = std::move(pairs);
  // ASCII only, as before; a path that is not UTF-8 shows U+FFFD where its bad bytes were.
  return WriteFileAtomically(path, summary.dump(kIndent, ' ', /*ensure_ascii=*/true, Json::error_handler_t::replace) + '\n');
}

void PutRowRef(std::string* dst, const RowRef& ref) {
  PutString(dst, ref.file);
  PutVarint64(dst, ref.row);
  PutString(dst, ref.target_name);
  PutString(dst, ref.api);
  PutEnum(dst, ref.result);
  PutString(dst, ref.err_message);
}

bool GetRowRef(Decoder* in, RowRef* ref) {
  return GetString(in, &ref->file) && GetVarint64(in, &ref->row) && GetString(in, &ref->target_name) &&
         GetString(in, &ref->api) && GetEnum(in, &ref->result, Verdict::kError) && GetString(in, &ref->err_message);
}

void PutWorstRow(std::string* dst, const WorstRow& row) {
  PutVarint64(dst, row.row);
  PutString(dst, row.target_name);
  PutEnum(dst, row.result);
  PutDouble(dst, row.value);
}

bool GetWorstRow(Decoder* in, WorstRow* row) {
  return GetVarint64(in, &row->row) && GetString(in, &row->target_name) && GetEnum(in, &row->result, Verdict::kError) &&
         GetDouble(in, &row->value);
}

}  // namespace msprobe::compare
