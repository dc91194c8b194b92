#include "msprobe/compare/report/html_report.h"

#include "msprobe/dump/io/atomic_file.h"
#include "report/report_assets_internal.h"
#include "report/report_data_internal.h"

namespace msprobe::compare {
namespace {

std::string HtmlText(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// No source but the page itself: the report must request nothing, even if a library tried to.
constexpr const char* kHead =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
    "style-src 'unsafe-inline'; img-src data:\">\n";

}  // namespace

Status HtmlReport::Write(const std::string& path, const HtmlReportMeta& meta) const {
  std::string data;
  internal::AppendReportData(parts_, meta, &data);
  const std::string title = HtmlText("compare report " + meta.title);
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  for (std::string_view piece : {std::string_view(kHead), std::string_view("<title>"),
                                 std::string_view(title),
                                 std::string_view("</title>\n<style>\n"), internal::PageCss(),
                                 std::string_view("</style>\n</head><body>\n<script id=\"report-data\" type=\"application/json\">"),
                                 std::string_view(data), std::string_view("</script>\n<script>\n"),
                                 internal::ChartLibraryJs(), std::string_view("\n</script>\n<script>\n"), internal::PageJs(),
                                 std::string_view("</script>\n</body></html>\n")}) {
    MSP_RETURN_IF_ERROR(file.Write(piece));
  }
  return file.Commit();
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
