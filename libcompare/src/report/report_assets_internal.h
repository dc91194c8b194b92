// The files the HTML report inlines, embedded in the binary at build time (report_assets.S.in):
// the charting library as npm installed it from report/package-lock.json, and our page's script
// and style from report/.
#pragma once

#include <string_view>

namespace msprobe::compare::internal {

std::string_view ChartLibraryJs();  // Apache ECharts, echarts.min.js
std::string_view PageJs();          // report/page.js
std::string_view PageCss();         // report/page.css

}  // namespace msprobe::compare::internal
