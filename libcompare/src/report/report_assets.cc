#include "report/report_assets_internal.h"

// Defined by report_assets.S.
extern "C" const char msprobe_report_echarts_begin[], msprobe_report_echarts_end[];
extern "C" const char msprobe_report_page_js_begin[], msprobe_report_page_js_end[];
extern "C" const char msprobe_report_page_css_begin[], msprobe_report_page_css_end[];
extern "C" const char msprobe_report_trend_js_begin[], msprobe_report_trend_js_end[];
extern "C" const char msprobe_report_trend_css_begin[], msprobe_report_trend_css_end[];
extern "C" const char msprobe_report_consistency_js_begin[], msprobe_report_consistency_js_end[];
extern "C" const char msprobe_report_consistency_css_begin[], msprobe_report_consistency_css_end[];
extern "C" const char msprobe_report_page_util_js_begin[], msprobe_report_page_util_js_end[];

namespace msprobe::compare::internal {

std::string_view ChartLibraryJs() {
  return {msprobe_report_echarts_begin, static_cast<size_t>(msprobe_report_echarts_end - msprobe_report_echarts_begin)};
}
std::string_view PageJs() {
  return {msprobe_report_page_js_begin, static_cast<size_t>(msprobe_report_page_js_end - msprobe_report_page_js_begin)};
}
std::string_view PageCss() {
  return {msprobe_report_page_css_begin, static_cast<size_t>(msprobe_report_page_css_end - msprobe_report_page_css_begin)};
}

std::string_view TrendPageJs() {
  return {msprobe_report_trend_js_begin, static_cast<size_t>(msprobe_report_trend_js_end - msprobe_report_trend_js_begin)};
}
std::string_view TrendPageCss() {
  return {msprobe_report_trend_css_begin, static_cast<size_t>(msprobe_report_trend_css_end - msprobe_report_trend_css_begin)};
}

std::string_view ConsistencyPageJs() {
  return {msprobe_report_consistency_js_begin,
          static_cast<size_t>(msprobe_report_consistency_js_end - msprobe_report_consistency_js_begin)};
}
std::string_view ConsistencyPageCss() {
  return {msprobe_report_consistency_css_begin,
          static_cast<size_t>(msprobe_report_consistency_css_end - msprobe_report_consistency_css_begin)};
}

std::string PageScript(std::string_view page_js) {
  std::string script(msprobe_report_page_util_js_begin,
                     static_cast<size_t>(msprobe_report_page_util_js_end - msprobe_report_page_util_js_begin));
  script += page_js;
  return script;
}

}  // namespace msprobe::compare::internal
