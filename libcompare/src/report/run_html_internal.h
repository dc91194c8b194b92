// What msprobe-compare --html adds to a compare run (kept apart from the compare job, which only calls
// these): a pair's table turned into a ReportPart, and the run's page written once every pair and the
// cross-rank analysis are done, with the first diff and first cause as links.
#pragma once

#include <string>

#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/report/html_report.h"

namespace msprobe::compare::internal {

// The pair's rows, with the module tree of the construct.json beside its target dump.json.
ReportPart MakeReportPart(const std::string& label, const std::string& target_json, const ResultTable& table);

// Writes compare_report_{ts}.html into options.output_dir; returns its path.
Result<std::string> WriteRunHtml(const CompareOptions& options, const CompareReport& report, const HtmlReport& html);

}  // namespace msprobe::compare::internal
