#include "msprobe/compare/report/html_report.h"

#include "report/html_page_internal.h"
#include "report/report_assets_internal.h"
#include "report/report_data_internal.h"

namespace msprobe::compare {

Status HtmlReport::Write(const std::string& path, const HtmlReportMeta& meta) const {
  std::string data;
  internal::AppendReportData(parts_, meta, &data);
  const std::string title = "compare report " + meta.title;
  return internal::WriteHtmlPage(path, {title, internal::PageCss(), data, internal::PageJs()});
}

Status WriteHtmlReport(const std::string& path, const ResultTable& table, const std::string& construct_json,
                       const HtmlReportMeta& meta) {
  ReportPart part("", table.mode, construct_json);
  for (const ResultRow& row : table.rows) part.AddRow(row);
  HtmlReport report;
  report.AddPart(std::move(part));
  return report.Write(path, meta);
}

}  // namespace msprobe::compare
