// One self-contained HTML page (docs/compare.md §10): a title, a style, a JSON data element
// (id "report-data"), the charting library and a page script, all inline, under a Content-Security-
// Policy that forbids every request. The compare report and the trend page are written by it.
#pragma once

#include <string>
#include <string_view>

#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

struct HtmlPage {
  std::string_view title;   // text, escaped here
  std::string_view css;
  std::string_view data;    // JSON, already escaped for HTML (json_text_internal.h)
  std::string_view script;  // runs after the charting library
};

// Writes the page to `path` atomically.
Status WriteHtmlPage(const std::string& path, const HtmlPage& page);

}  // namespace msprobe::compare::internal
