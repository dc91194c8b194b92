// The page's data, read by report/consistency.js:
//   {"title", "input", "mode", "threshold", "counts": {…}, "checks": [{"name", "ran", "compared", "detail"}],
//    "findings": {"kind": [0 inconsistency, 1 suspect], "step", "rank", "api", "name", "check", "group",
//                 "value", "expected", "score": [number or null], "reason"}, "left_out": findings not in it}
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "consistency/consistency_outputs_internal.h"
#include "report/html_page_internal.h"
#include "report/json_text_internal.h"
#include "report/report_assets_internal.h"

namespace msprobe::compare::internal {
namespace {

void Key(std::string_view key, std::string* out) {
  AppendJsonString(key, out);
  out->push_back(':');
}

// One column of the first `n` findings: `get` of each, as a JSON array of T.
template <class T, class Get>
void Column(std::string_view key, const std::vector<ConsistencyFinding>& rows, size_t n, Get get, std::string* out) {
  std::vector<T> column;
  column.reserve(n);
  for (size_t i = 0; i < n; ++i) column.push_back(static_cast<T>(get(rows[i])));
  Key(key, out);
  AppendJsonArray(column, out);
  out->push_back(',');
}

void AppendFindings(const std::vector<ConsistencyFinding>& rows, size_t n, std::string* out) {
  using F = ConsistencyFinding;
  out->push_back('{');
  Column<int32_t>("kind", rows, n, [](const F& f) { return f.kind == F::Kind::kInconsistency ? 0 : 1; }, out);
  Column<int32_t>("step", rows, n, [](const F& f) { return f.step; }, out);
  Column<int32_t>("rank", rows, n, [](const F& f) { return f.rank; }, out);
  Column<double>("score", rows, n,
                  [](const F& f) { return f.score ? *f.score : std::numeric_limits<double>::quiet_NaN(); }, out);
  Column<std::string>("api", rows, n, [](const F& f) { return f.api; }, out);
  Column<std::string>("name", rows, n, [](const F& f) { return f.name; }, out);
  Column<std::string>("check", rows, n, [](const F& f) { return f.check; }, out);
  Column<std::string>("group", rows, n, [](const F& f) { return f.group; }, out);
  Column<std::string>("value", rows, n, [](const F& f) { return f.value; }, out);
  Column<std::string>("expected", rows, n, [](const F& f) { return f.expected; }, out);
  Column<std::string>("reason", rows, n, [](const F& f) { return f.reason; }, out);
  out->back() = '}';
}

std::string PageData(const ConsistencyOptions& options, const ConsistencyReport& report, size_t max_rows) {
  std::string out = "{";
  const auto text = [&](std::string_view key, std::string_view value) {
    Key(key, &out);
    AppendJsonString(value, &out);
    out.push_back(',');
  };
  const auto number = [&](std::string_view key, double value) {
    Key(key, &out);
    AppendJsonNumber(value, &out);
    out.push_back(',');
  };
  text("title", "consistency " + options.input);
  text("input", options.input);
  text("mode", report.mode);
  number("threshold", options.z_threshold);
  const ConsistencyCounts& n = report.counts;
  Key("counts", &out);
  out += fmt::format(R"({{"steps":{},"ranks":{},"dumps":{},"arguments":{},"inconsistencies":{},"suspects":{}}},)", n.steps,
                     n.ranks, n.dumps, n.arguments, n.inconsistencies, n.suspects);
  Key("checks", &out);
  out.push_back('[');
  for (const ConsistencyCheck& c : report.checks) {
    out += "{\"name\":";
    AppendJsonString(c.name, &out);
    out += fmt::format(",\"ran\":{},\"compared\":{},\"detail\":", c.ran ? "true" : "false", c.compared);
    AppendJsonString(c.detail, &out);
    out += "},";
  }
  if (out.back() == ',') out.pop_back();
  out += "],";
  const size_t shown = std::min(max_rows, report.findings.size());
  Key("left_out", &out);
  out += std::to_string(report.findings.size() - shown) + ",";
  Key("findings", &out);
  AppendFindings(report.findings, shown, &out);
  out.push_back('}');
  return out;
}

}  // namespace

Status WriteConsistencyPage(const std::string& path, const ConsistencyOptions& options, const ConsistencyReport& report,
                            size_t max_rows) {
  const std::string data = PageData(options, report, max_rows);
  const std::string title = "consistency " + options.input;
  const std::string script = PageScript(ConsistencyPageJs());
  return WriteHtmlPage(path, {title, ConsistencyPageCss(), data, script});
}

}  // namespace msprobe::compare::internal
