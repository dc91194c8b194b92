// The files the HTML pages inline, embedded in the binary at build time (report_assets.S.in): the
// charting library as npm installed it from report/package-lock.json, and our pages' scripts and
// styles from report/ (the compare report's, the trend page's, the consistency page's).
#pragma once

#include <string>
#include <string_view>

namespace msprobe::compare::internal {

std::string_view ChartLibraryJs();  // Apache ECharts, echarts.min.js
std::string_view PageJs();          // report/page.js
std::string_view PageCss();         // report/page.css
std::string_view TrendPageJs();     // report/trend.js
std::string_view TrendPageCss();    // report/trend.css
std::string_view ConsistencyPageJs();   // report/consistency.js
std::string_view ConsistencyPageCss();  // report/consistency.css
// The trend or consistency page's script whole: report/page_util.js (what they share), then `page_js`.
std::string PageScript(std::string_view page_js);

}  // namespace msprobe::compare::internal
