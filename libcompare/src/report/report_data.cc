#include "report/report_data_internal.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <functional>
#include <iterator>

#include "report/json_text_internal.h"
#include "report/module_tree_internal.h"

namespace msprobe::compare::internal {
namespace {

void AppendKey(const char* key, std::string* out) {
  AppendJsonString(key, out);
  out->push_back(':');
}

void AppendAnomalies(const HtmlReportMeta& meta, std::string* out) {
  if (meta.anomaly_file.empty()) {
    *out += "null";
    return;
  }
  *out += '{';
  AppendKey("file", out);
  AppendJsonString(meta.anomaly_file, out);
  *out += ',';
  AppendKey("nodes", out);
  *out += '[';
  for (size_t i = 0; i < meta.anomalies.size(); ++i) {
    if (i) *out += ',';
    *out += '[' + std::to_string(meta.anomalies[i].rank) + ',';
    AppendJsonString(meta.anomalies[i].op_name, out);
    *out += ']';
  }
  *out += "]}";
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

using Member = std::function<void(std::string*)>;

template <class Values>
Member ArrayMember(const char* key, const Values& values) {
  return [key, &values](std::string* out) {
    AppendKey(key, out);
    AppendJsonArray(values, out);
  };
}

// Writes `open member,member,... close`. Members are formatted side by side (a million-row column
// takes a while to format), each into its own text, then joined in order.
void AppendJoined(const std::vector<Member>& members, char open, char close, std::string* out) {
  std::vector<std::string> texts(members.size());
  tbb::parallel_for(size_t{0}, members.size(), [&](size_t i) { members[i](&texts[i]); });
  size_t size = out->size() + texts.size() + 2;
  for (const std::string& text : texts) size += text.size();
  out->reserve(size);  // one copy of each member, not one per doubling of `out`
  *out += open;
  for (size_t i = 0; i < texts.size(); ++i) {
    if (i) *out += ',';
    *out += texts[i];
  }
  *out += close;
}

void AppendObject(const std::vector<Member>& members, std::string* out) { AppendJoined(members, '{', '}', out); }

void AppendPart(const ReportPart& part, std::string* out) {
  const ModuleTree tree = BuildModuleTree(part.apis(), part.construct_json());
  std::vector<uint32_t> whole, golden_rows, golden_names;
  for (size_t i = 0; i < part.whole_names().size(); ++i) {
    if (part.whole_names()[i]) whole.push_back(static_cast<uint32_t>(i));
  }
  for (const auto& [row, name] : part.golden_names()) {
    golden_rows.push_back(row);
    golden_names.push_back(name);
  }
  std::vector<Member> metrics;
  for (const ReportMetricColumn& column : part.metrics()) {
    metrics.push_back([&column](std::string* o) { AppendMetric(column, o); });
  }
  AppendObject(
      {[&](std::string* o) {
         AppendKey("label", o);
         AppendJsonString(part.label(), o);
       },
       ArrayMember("strings", part.strings().strings()),
       [&](std::string* o) {
         AppendKey("tree", o);
         AppendObject({ArrayMember("names", tree.names), ArrayMember("parents", tree.parents),
                       [&](std::string* n) {
                         AppendKey("note", n);
                         AppendJsonString(tree.note, n);
                       }},
                      o);
       },
       ArrayMember("api", part.api_of_row()), ArrayMember("tail", part.tails()), ArrayMember("wholeNames", whole),
       ArrayMember("benchRows", golden_rows), ArrayMember("benchNames", golden_names),
       ArrayMember("dtype", part.dtypes()), ArrayMember("shape", part.shapes()),
       ArrayMember("err", part.err_messages()), ArrayMember("verdict", part.verdicts()),
       ArrayMember("main", part.main_metric()),
       [&](std::string* o) {
         AppendKey("metrics", o);
         AppendJoined(metrics, '[', ']', o);
       }},
      out);
}

}  // namespace

void AppendReportData(const std::vector<ReportPart>& parts, const HtmlReportMeta& meta, std::string* out) {
  // Every part of a run is of the same kind.
  const std::string kind = parts.empty() ? "" : parts.front().kind();
  const std::string main_metric = parts.empty() ? "" : parts.front().main_metric_label();
  // Parts are encoded side by side (construct.json read, numbers formatted), then joined in order.
  std::vector<std::string> encoded(parts.size());
  tbb::parallel_for(size_t{0}, parts.size(), [&](size_t i) { AppendPart(parts[i], &encoded[i]); });
  *out += '{';
  AppendKey("title", out);
  AppendJsonString(meta.title, out);
  *out += ',';
  AppendKey("mode", out);
  AppendJsonString(kind, out);
  *out += ',';
  AppendKey("mainMetric", out);
  AppendJsonString(main_metric, out);
  *out += ',';
  AppendKey("firstDiff", out);
  AppendLink(meta.first_diff, out);
  *out += ',';
  AppendKey("firstCause", out);
  AppendLink(meta.first_cause, out);
  *out += ',';
  AppendKey("firstCauseName", out);
  AppendJsonString(meta.first_cause_name, out);
  *out += ',';
  AppendKey("passed", out);
  *out += meta.passed ? std::to_string(*meta.passed) : std::string("null");
  *out += ',';
  AppendKey("notCompared", out);
  fmt::format_to(std::back_inserter(*out), "[{},{},{}]", meta.unmatched_target, meta.unmatched_golden,
                 meta.unreadable_tensors);
  *out += ',';
  AppendKey("anomalies", out);
  AppendAnomalies(meta, out);
  size_t size = out->size() + encoded.size() + 16;
  for (const std::string& text : encoded) size += text.size();
  out->reserve(size);
  *out += ",\"parts\":[";
  for (size_t i = 0; i < encoded.size(); ++i) {
    if (i) *out += ',';
    *out += encoded[i];
  }
  *out += "]}";
}

}  // namespace msprobe::compare::internal
