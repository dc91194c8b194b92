#include "report/html_page_internal.h"

#include "msprobe/dump/io/atomic_file.h"
#include "report/report_assets_internal.h"

namespace msprobe::compare::internal {
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

// No source but the page itself: the page must request nothing, even if a library tried to.
constexpr const char* kHead =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
    "style-src 'unsafe-inline'; img-src data:\">\n";

}  // namespace

Status WriteHtmlPage(const std::string& path, const HtmlPage& page) {
  const std::string title = HtmlText(page.title);
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  for (std::string_view piece : {std::string_view(kHead), std::string_view("<title>"), std::string_view(title),
                                 std::string_view("</title>\n<style>\n"), page.css,
                                 std::string_view("</style>\n</head><body>\n<script id=\"report-data\" type=\"application/json\">"),
                                 page.data, std::string_view("</script>\n<script>\n"), ChartLibraryJs(),
                                 std::string_view("\n</script>\n<script>\n"), page.script,
                                 std::string_view("</script>\n</body></html>\n")}) {
    MSP_RETURN_IF_ERROR(file.Write(piece));
  }
  return file.Commit();
}

}  // namespace msprobe::compare::internal
