#include "report/run_html_internal.h"

#include <filesystem>

#include "output/output_timestamp_internal.h"
#include "report/anomaly_file_internal.h"

namespace msprobe::compare::internal {
namespace {

namespace fs = std::filesystem;

// The part showing a row of `file`: pairs and parts are in the same order, one part per pair that
// wrote rows.
std::optional<ReportRowLink> LinkTo(const CompareReport& report, const std::string& file, size_t row) {
  size_t part = 0;
  for (const PairResult& pair : report.pairs) {
    if (!pair.skipped_reason.empty()) continue;
    if (pair.RowFile() == file) return ReportRowLink{part, row};
    ++part;
  }
  return std::nullopt;
}

}  // namespace

ReportPart CompareReportPart(const std::string& label, const std::string& target_json, CompareMode mode,
                             bool with_match) {
  return ReportPart(label, mode, (fs::path(target_json).parent_path() / "construct.json").string(), with_match);
}

Result<std::string> WriteRunHtml(const std::string& output_dir, const std::string& title, const CompareReport& report,
                                 const HtmlReport& html) {
  HtmlReportMeta meta;
  meta.title = title;
  if (!report.first_diff.nodes.empty()) {
    const RowRef& node = report.first_diff.nodes.front();
    meta.first_diff = LinkTo(report, node.file, node.row);
  }
  meta.passed = 0;
  for (const PairResult& pair : report.pairs) {
    *meta.passed += pair.passed;
    meta.unmatched_target += pair.unmatched.target;
    meta.unmatched_golden += pair.unmatched.golden;
    meta.unreadable_tensors += pair.unreadable_tensors;
    if (pair.first_cause && !meta.first_cause) {
      meta.first_cause = LinkTo(report, pair.RowFile(), pair.first_cause->row);
      meta.first_cause_name = pair.first_cause->api + " (" + pair.first_cause->kind + ")";
    }
  }
  if (std::optional<AnomalyFile> anomalies = FindAnomalyFile(output_dir)) {
    meta.anomaly_file = std::move(anomalies->name);
    meta.anomalies = std::move(anomalies->anomalies);
  }
  const std::string path = (fs::path(output_dir) / ("compare_report_" + OutputTimestamp() + ".html")).string();
  MSP_RETURN_IF_ERROR(html.Write(path, meta));
  return path;
}

}  // namespace msprobe::compare::internal
