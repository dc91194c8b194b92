#include "msprobe/compare/output/summary_report.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/dump/formats/python_format.h"
#include "msprobe/dump/formats/python_json.h"
#include "msprobe/dump/io/atomic_file.h"

namespace msprobe::compare {
namespace {

constexpr int kIndent = 2;

// The main metric of a row as a number: Cosine as it is; NormRelativeErr's "12.3%" as 0.123 and
// "inf" (bench value 0) as infinity. Texts such as "N/A", "Nan" or "unsupported" have none.
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

void WriteRowRef(PyJsonWriter* w, const RowRef& ref) {
  w->BeginObject();
  w->Key("file");
  w->String(ref.file);
  w->Key("row");
  w->Int(static_cast<int64_t>(ref.row));
  w->Key("npu_name");
  w->String(ref.npu_name);
  w->Key("api");
  w->String(ref.api);
  w->Key("result");
  w->String(VerdictName(ref.result));
  w->Key("err_message");
  w->String(ref.err_message);
  w->EndObject();
}

void WriteOptionalRowRef(PyJsonWriter* w, const std::optional<RowRef>& ref) {
  if (ref) {
    WriteRowRef(w, *ref);
  } else {
    w->Null();
  }
}

// Strict JSON has no infinity: an infinite metric is written as the string "inf".
void WriteMetric(PyJsonWriter* w, double v) {
  if (std::isfinite(v)) {
    w->Float(v);
  } else {
    w->String(v > 0 ? "inf" : "-inf");
  }
}

void WriteCounts(PyJsonWriter* w, uint64_t rows, uint64_t passed, uint64_t warnings, uint64_t errors) {
  w->BeginObject();
  w->Key("rows");
  w->Int(static_cast<int64_t>(rows));
  w->Key("pass");
  w->Int(static_cast<int64_t>(passed));
  w->Key("warning");
  w->Int(static_cast<int64_t>(warnings));
  w->Key("error");
  w->Int(static_cast<int64_t>(errors));
  w->EndObject();
}

}  // namespace

RowRef MakeRowRef(const ResultTable& table, size_t row, const std::string& file) {
  const ResultRow& r = table.rows[row];
  return {file, row, r.npu_name, r.api, r.result, JsonDumpsStrings(r.err_messages)};
}

std::optional<RowRef> FirstRowReaching(const ResultTable& table, Verdict level, const std::string& file) {
  for (size_t row = 0; row < table.rows.size(); ++row) {
    if (table.rows[row].result >= level) return MakeRowRef(table, row, file);
  }
  return std::nullopt;
}

const char* MainMetricName(CompareMode mode) {
  switch (mode) {
    case CompareMode::kTensor: return "Cosine";
    case CompareMode::kSummary: return "NormRelativeErr";
    case CompareMode::kMd5: return "";
  }
  return "";
}

std::vector<WorstRow> WorstRows(const ResultTable& table, size_t n) {
  // Ranks (row, value) pairs and names only the rows kept: the table may hold millions.
  std::vector<std::pair<size_t, double>> ranked;
  for (size_t row = 0; row < table.rows.size(); ++row) {
    if (const std::optional<double> v = MainMetric(table.rows[row], table.mode)) ranked.emplace_back(row, *v);
  }
  const bool ascending = table.mode == CompareMode::kTensor;  // a low Cosine is bad, a high error is
  const auto worse = [&](const std::pair<size_t, double>& a, const std::pair<size_t, double>& b) {
    if (a.second != b.second) return ascending ? a.second < b.second : a.second > b.second;
    return a.first < b.first;
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

Status WriteSummaryJson(const std::string& path, const CompareOptions& options, const CompareReport& report) {
  PyJsonWriter w(kIndent);
  w.BeginObject();
  w.Key("tool");
  w.String("msprobe-compare");
  w.Key("version");
  w.String(options.tool_version);
  w.Key("inputs");
  w.BeginObject();
  w.Key("target_path");
  w.String(options.target_path);
  w.Key("golden_path");
  w.String(options.golden_path);
  w.Key("diff_analyze");
  w.Bool(options.diff_analyze);
  w.EndObject();

  uint64_t rows = 0, passed = 0, warnings = 0, errors = 0;
  std::optional<RowRef> first_error;
  for (const PairResult& pair : report.pairs) {
    rows += pair.rows;
    passed += pair.passed;
    warnings += pair.warnings;
    errors += pair.errors;
    if (!first_error) first_error = pair.first_error;
  }
  w.Key("counts");
  WriteCounts(&w, rows, passed, warnings, errors);
  w.Key("first_error");
  WriteOptionalRowRef(&w, first_error);

  w.Key("first_diff");
  if (!report.diff_analyzed) {
    w.Null();
  } else {
    w.BeginObject();
    w.Key("stage");
    w.String(DiffStageName(report.first_diff.stage));
    w.Key("analyze_file");
    if (report.first_diff.analyze_file.empty()) {
      w.Null();
    } else {
      w.String(report.first_diff.analyze_file);
    }
    w.Key("nodes");
    w.BeginArray();
    for (size_t i = 0; i < report.first_diff.nodes.size(); ++i) {
      w.BeginObject();
      w.Key("rank");
      w.Int(report.first_diff.ranks[i]);
      w.Key("row");
      WriteRowRef(&w, report.first_diff.nodes[i]);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }

  w.Key("pairs");
  w.BeginArray();
  for (const PairResult& pair : report.pairs) {
    w.BeginObject();
    w.Key("label");
    w.String(pair.label);
    w.Key("target_json");
    w.String(pair.target_json);
    w.Key("golden_json");
    w.String(pair.golden_json);
    w.Key("mode");
    w.String(pair.mode);
    w.Key("outputs");
    w.StringList(pair.outputs);
    if (!pair.skipped_reason.empty()) {
      w.Key("skipped");
      w.String(pair.skipped_reason);
    }
    w.Key("counts");
    WriteCounts(&w, pair.rows, pair.passed, pair.warnings, pair.errors);
    w.Key("first_error");
    WriteOptionalRowRef(&w, pair.first_error);
    w.Key("worst_metric");
    w.String(pair.mode == "ALL" ? "Cosine" : pair.mode == "SUMMARY" ? "NormRelativeErr" : "");
    w.Key("worst");
    w.BeginArray();
    for (const WorstRow& row : pair.worst) {
      w.BeginObject();
      w.Key("row");
      w.Int(static_cast<int64_t>(row.row));
      w.Key("npu_name");
      w.String(row.npu_name);
      w.Key("value");
      WriteMetric(&w, row.value);
      w.Key("result");
      w.String(VerdictName(row.result));
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return WriteFileAtomically(path, std::move(w).Finish() + '\n');
}

}  // namespace msprobe::compare
