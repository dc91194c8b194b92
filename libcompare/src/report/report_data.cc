#include "report/report_data_internal.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <iterator>

#include "msprobe/compare/output/json_writer.h"
#include "report/json_text_internal.h"
#include "report/module_tree_internal.h"

namespace msprobe::compare::internal {
namespace {

void AppendKey(const char* key, std::string* out) {
  AppendJsonString(key, out);
  out->push_back(':');
}

void AppendLink(const std::optional<ReportRowLink>& link, std::string* out) {
  if (link) {
    fmt::format_to(std::back_inserter(*out), "[{},{}]", link->part, link->row);
  } else {
    *out += "null";
  }
}

void AppendMetric(const ReportMetricColumn& column, std::string* out) {
  std::vector<uint32_t> rows, texts;
  for (const auto& [row, text] : column.texts) {
    rows.push_back(row);
    texts.push_back(text);
  }
  *out += '{';
  AppendKey("name", out);
  AppendJsonString(column.name, out);
  *out += column.percent ? ",\"percent\":true," : ",\"percent\":false,";
  AppendKey("values", out);
  AppendJsonArray(column.values, out);
  *out += ',';
  AppendKey("textRows", out);
  AppendJsonArray(rows, out);
  *out += ',';
  AppendKey("texts", out);
  AppendJsonArray(texts, out);
  *out += '}';
}

void AppendPart(const ReportPart& part, std::string* out) {
  const ModuleTree tree = BuildModuleTree(part.apis(), part.construct_json());
  std::vector<uint32_t> whole, bench_rows, bench_names;
  for (size_t i = 0; i < part.whole_names().size(); ++i) {
    if (part.whole_names()[i]) whole.push_back(static_cast<uint32_t>(i));
  }
  for (const auto& [row, name] : part.bench_names()) {
    bench_rows.push_back(row);
    bench_names.push_back(name);
  }
  *out += '{';
  AppendKey("label", out);
  AppendJsonString(part.label(), out);
  *out += ',';
  AppendKey("strings", out);
  AppendJsonArray(part.strings().strings(), out);
  *out += ",\"tree\":{";
  AppendKey("names", out);
  AppendJsonArray(tree.names, out);
  *out += ',';
  AppendKey("parents", out);
  AppendJsonArray(tree.parents, out);
  *out += ',';
  AppendKey("note", out);
  AppendJsonString(tree.note, out);
  *out += '}';
  const auto column = [out](const char* key, const auto& values) {
    *out += ',';
    AppendKey(key, out);
    AppendJsonArray(values, out);
  };
  column("api", part.api_of_row());
  column("tail", part.tails());
  column("wholeNames", whole);
  column("benchRows", bench_rows);
  column("benchNames", bench_names);
  column("dtype", part.dtypes());
  column("shape", part.shapes());
  column("err", part.err_messages());
  column("verdict", part.verdicts());
  column("main", part.main_metric());
  *out += ",\"metrics\":[";
  for (size_t i = 0; i < part.metrics().size(); ++i) {
    if (i) *out += ',';
    AppendMetric(part.metrics()[i], out);
  }
  *out += "]}";
}

const char* MainMetricLabel(CompareMode mode) {
  switch (mode) {
    case CompareMode::kTensor: return "1 - Cosine";
    case CompareMode::kSummary: return "|NormRelativeErr|";
    case CompareMode::kMd5: break;
  }
  return "";
}

}  // namespace

void AppendReportData(const std::vector<ReportPart>& parts, const HtmlReportMeta& meta, std::string* out) {
  const CompareMode mode = parts.empty() ? CompareMode::kSummary : parts.front().mode();
  // Parts are encoded side by side (construct.json read, numbers formatted), then joined in order.
  std::vector<std::string> encoded(parts.size());
  tbb::parallel_for(size_t{0}, parts.size(), [&](size_t i) { AppendPart(parts[i], &encoded[i]); });
  *out += '{';
  AppendKey("title", out);
  AppendJsonString(meta.title, out);
  *out += ',';
  AppendKey("mode", out);
  AppendJsonString(DumpModeName(mode), out);
  *out += ',';
  AppendKey("mainMetric", out);
  AppendJsonString(MainMetricLabel(mode), out);
  *out += ',';
  AppendKey("firstDiff", out);
  AppendLink(meta.first_diff, out);
  *out += ',';
  AppendKey("firstCause", out);
  AppendLink(meta.first_cause, out);
  *out += ",\"parts\":[";
  for (size_t i = 0; i < encoded.size(); ++i) {
    if (i) *out += ',';
    *out += encoded[i];
  }
  *out += "]}";
}

}  // namespace msprobe::compare::internal
