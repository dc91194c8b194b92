// What msprobe-compare --html adds to a compare run (kept apart from the compare job, which only calls
// these): a ReportPart for each pair's rows, and the run's page written once every pair and the
// cross-rank analysis are done, with the first diff and first cause as links.
#pragma once

#include <string>

#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/report/html_report.h"

namespace msprobe::compare::internal {

// A pair's part, for its rows as they come, with the module tree of the construct.json beside its
// target dump.json.
ReportPart CompareReportPart(const std::string& label, const std::string& target_json, CompareMode mode);

// Writes compare_report_{ts}.html into options.output_dir; returns its path.
Result<std::string> WriteRunHtml(const CompareOptions& options, const CompareReport& report, const HtmlReport& html);

}  // namespace msprobe::compare::internal
