// The HTML report's data: every part's columns as one JSON object, columnar (an array per column,
// numbers as numbers, repeated texts as indices into the part's "strings"), read by report/page.js.
//
//   {"title", "mode": the parts' ReportColumns::kind ("ALL", "SUMMARY", "MD5", "RECOMPUTE"),
//    "mainMetric": its main_metric ("1 - Cosine", "|NormRelativeErr|", "" for none, …),
//    "firstDiff": [part, row] | null, "firstCause": [part, row] | null,
//    "anomalies": {"file", "nodes": [[rank, op name], ...]} | null   (overflow_check's)
//    "parts": [{"label", "strings": [...],
//               "tree": {"names", "parents", "note"},   nodes 0..n-1 are the part's APIs
//               "api", "tail": per row, NPU Name = tree.names[api] + strings[tail]
//               "wholeNames": rows whose strings[tail] is the whole NPU Name
//               "benchRows", "benchNames": rows whose Bench Name differs, and it
//               "dtype", "shape", "err": per row, indices into strings
//               "verdict": per row, 0 pass, 1 warning, 2 error
//               "main": per row, the main metric as charted (null: none)
//               "metrics": [{"name", "percent", "values", "textRows", "texts"}]}]}
// Numbers have 6 significant digits, as mantissa and exponent ("123457e-8"); null is none.
#pragma once

#include <string>
#include <vector>

#include "msprobe/compare/report/html_report.h"

namespace msprobe::compare::internal {

void AppendReportData(const std::vector<ReportPart>& parts, const HtmlReportMeta& meta, std::string* out);

}  // namespace msprobe::compare::internal
