// What msprobe-compare --html adds to a compare run (kept apart from the compare job, which only calls
// these): a ReportPart for each pair's rows, and the run's page written once every pair and the
// cross-rank analysis are done, with the first diff and first cause as links.
#pragma once

#include <string>

#include "msprobe/compare/output/compare_report.h"
#include "msprobe/compare/report/html_report.h"

namespace msprobe::compare::internal {

// A pair's part, for its rows as they come, with the module tree of the construct.json beside its
// target dump.json; `with_match`: with --align's Match column.
ReportPart CompareReportPart(const std::string& label, const std::string& target_json, CompareMode mode,
                             bool with_match);

// Writes compare_report_{ts}.html into `output_dir`, titled "TARGET vs GOLDEN", with the anomalies of
// an overflow_check analyze file found there; returns its path.
Result<std::string> WriteRunHtml(const std::string& output_dir, const std::string& title, const CompareReport& report,
                                 const HtmlReport& html);

}  // namespace msprobe::compare::internal
