#include "jobs/run_report_internal.h"

#include <filesystem>
#include <system_error>

#include "msprobe/compare/output/summary_report.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

constexpr size_t kWorstRows = 20;

}  // namespace

std::optional<JunitSuite> SummarizePair(const ResultTable& table, const std::string& file, double seconds,
                                        const CompareOptions& options, PairResult* result) {
  result->rows = table.rows.size();
  for (const ResultRow& r : table.rows) {
    switch (r.result) {
      case Verdict::kPass: ++result->passed; break;
      case Verdict::kWarning: ++result->warnings; break;
      case Verdict::kError: ++result->errors; break;
    }
  }
  result->first_error = FirstRowReaching(table, Verdict::kError, file);
  result->first_warning = FirstRowReaching(table, Verdict::kWarning, file);
  result->worst = WorstRows(table, kWorstRows);
  if (options.junit_path.empty()) return std::nullopt;
  JunitSuite suite = BuildJunitSuite(result->label, file, table, options.fail_on);
  suite.seconds = seconds;
  return suite;
}

Status WriteRunReports(const CompareOptions& options, CompareReport* report) {
  if (!options.junit_path.empty()) MSP_RETURN_IF_ERROR(WriteJunit(options.junit_path, report->junit));
  report->summary_file = (fs::path(options.output_dir) / "summary.json").string();
  std::error_code ec;
  fs::create_directories(options.output_dir, ec);
  if (ec) return Status::IOError(options.output_dir, "cannot create the output directory: " + ec.message());
  return WriteSummaryJson(report->summary_file, options, *report);
}

}  // namespace msprobe::compare
