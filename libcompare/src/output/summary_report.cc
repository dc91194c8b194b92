#include "msprobe/compare/output/summary_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "msprobe/compare/output/compare_report.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/util/coding.h"

namespace msprobe::compare {
namespace {

constexpr int kIndent = 2;

using Json = nlohmann::ordered_json;  // members in the order written: people read summary.json

Json RowRefJson(const RowRef& ref) {
  return {{"file", ref.file},           {"row", ref.row},
          {"npu_name", ref.npu_name},   {"api", ref.api},
          {"result", VerdictName(ref.result)}, {"err_message", ref.err_message}};
}

Json OptionalRowRefJson(const std::optional<RowRef>& ref) { return ref ? RowRefJson(*ref) : Json(nullptr); }

// Strict JSON has no infinity: an infinite metric is written as the string "inf".
Json MetricJson(double v) {
  if (std::isfinite(v)) return v;
  return v > 0 ? "inf" : "-inf";
}

Json CountsJson(uint64_t rows, uint64_t passed, uint64_t warnings, uint64_t errors) {
  return {{"rows", rows}, {"pass", passed}, {"warning", warnings}, {"error", errors}};
}

Json FirstDiffJson(const CompareReport& report) {
  if (!report.diff_analyzed) return nullptr;
  Json nodes = Json::array();
  for (size_t i = 0; i < report.first_diff.nodes.size(); ++i) {
    nodes.push_back({{"rank", report.first_diff.ranks[i]}, {"row", RowRefJson(report.first_diff.nodes[i])}});
  }
  const std::string& analyze_file = report.first_diff.analyze_file;
  return {{"stage", DiffStageName(report.first_diff.stage)},
          {"analyze_file", analyze_file.empty() ? Json(nullptr) : Json(analyze_file)},
          {"nodes", std::move(nodes)}};
}

Json FirstCauseJson(const std::optional<FirstCause>& cause, const std::string& file) {
  if (!cause) return nullptr;
  return {{"api", cause->api},
          {"kind", cause->kind},
          {"argument", cause->argument ? Json(*cause->argument) : Json(nullptr)},
          {"file", file},
          {"row", cause->row}};
}

Json PairJson(const PairResult& pair, bool attribute) {
  Json j = {{"label", pair.label},
            {"target_json", pair.target_json},
            {"golden_json", pair.golden_json},
            {"mode", pair.mode},
            {"outputs", pair.outputs}};
  if (!pair.skipped_reason.empty()) j["skipped"] = pair.skipped_reason;
  j["streamed"] = pair.streamed;
  j["counts"] = CountsJson(pair.rows, pair.passed, pair.warnings, pair.errors);
  if (pair.mode == "ALL") {
    j["unreadable_tensors"] = {{"rows", pair.unreadable_tensors},
                               {"first", pair.first_unreadable.empty() ? Json(nullptr) : Json(pair.first_unreadable)}};
  }
  if (attribute) j["first_cause"] = FirstCauseJson(pair.first_cause, pair.RowFile());
  j["first_error"] = OptionalRowRefJson(pair.first_error);
  j["worst_metric"] = pair.mode == "ALL" ? "Cosine" : pair.mode == "SUMMARY" ? "NormRelativeErr" : "";
  Json worst = Json::array();
  for (const WorstRow& row : pair.worst) {
    worst.push_back({{"row", row.row},
                     {"npu_name", row.npu_name},
                     {"value", MetricJson(row.value)},
                     {"result", VerdictName(row.result)}});
  }
  j["worst"] = std::move(worst);
  return j;
}

}  // namespace

RowRef MakeRowRef(const ResultTable& table, size_t row, const std::string& file) {
  const ResultRow& r = table.rows[row];
  return {file, row, r.npu_name, r.api, r.result, ErrMessageText(r, table.layout)};
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
    rows.push_back({ranked[i].first, r.npu_name, r.result, ranked[i].second});
  }
  return rows;
}

void KeepWorst(std::vector<WorstRow>* rows, CompareMode mode, size_t n) {
  std::sort(rows->begin(), rows->end(),
            [mode](const WorstRow& a, const WorstRow& b) { return Worse(mode, a.row, a.value, b.row, b.value); });
  if (rows->size() > n) rows->resize(n);
}

Status WriteSummaryJson(const std::string& path, const SummaryInputs& inputs, const CompareReport& report) {
  uint64_t rows = 0, passed = 0, warnings = 0, errors = 0;
  std::optional<RowRef> first_error;
  const PairResult* first_cause = nullptr;
  Json pairs = Json::array();
  for (const PairResult& pair : report.pairs) {
    rows += pair.rows;
    passed += pair.passed;
    warnings += pair.warnings;
    errors += pair.errors;
    if (!first_error) first_error = pair.first_error;
    if (!first_cause && pair.first_cause) first_cause = &pair;
    pairs.push_back(PairJson(pair, inputs.attribute));
  }
  Json summary = {{"tool", "msprobe-compare"},
                        {"version", inputs.tool_version},
                        {"inputs",
                         {{"target_path", inputs.target_path},
                          {"golden_path", inputs.golden_path},
                          {"diff_analyze", inputs.diff_analyze}}},
                        {"counts", CountsJson(rows, passed, warnings, errors)}};
  if (inputs.attribute) {
    summary["first_cause"] = first_cause ? FirstCauseJson(first_cause->first_cause, first_cause->RowFile()) : Json(nullptr);
  }
  summary["first_error"] = OptionalRowRefJson(first_error);
  summary["first_diff"] = FirstDiffJson(report);
  if (!report.html_file.empty()) summary["html_report"] = report.html_file;  // --html
  summary["pairs"] = std::move(pairs);
  // ASCII only, as before; a path that is not UTF-8 shows U+FFFD where its bad bytes were.
  return WriteFileAtomically(path, summary.dump(kIndent, ' ', /*ensure_ascii=*/true, Json::error_handler_t::replace) + '\n');
}

void PutRowRef(std::string* dst, const RowRef& ref) {
  PutString(dst, ref.file);
  PutVarint64(dst, ref.row);
  PutString(dst, ref.npu_name);
  PutString(dst, ref.api);
  PutEnum(dst, ref.result);
  PutString(dst, ref.err_message);
}

bool GetRowRef(Decoder* in, RowRef* ref) {
  return GetString(in, &ref->file) && GetVarint64(in, &ref->row) && GetString(in, &ref->npu_name) &&
         GetString(in, &ref->api) && GetEnum(in, &ref->result, Verdict::kError) && GetString(in, &ref->err_message);
}

void PutWorstRow(std::string* dst, const WorstRow& row) {
  PutVarint64(dst, row.row);
  PutString(dst, row.npu_name);
  PutEnum(dst, row.result);
  PutDouble(dst, row.value);
}

bool GetWorstRow(Decoder* in, WorstRow* row) {
  return GetVarint64(in, &row->row) && GetString(in, &row->npu_name) && GetEnum(in, &row->result, Verdict::kError) &&
         GetDouble(in, &row->value);
}

}  // namespace msprobe::compare
