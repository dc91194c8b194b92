#include "msprobe/compare/trend/trend_page.h"

#include <algorithm>
#include <filesystem>

#include "report/html_page_internal.h"
#include "report/report_assets_internal.h"
#include "trend/trend_page_data_internal.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

// The databases `input` names: itself, or the *.trend.db files of a directory in name order.
Result<std::vector<std::string>> Databases(const std::string& input) {
  std::error_code ec;
  if (!fs::is_directory(input, ec)) {
    if (!fs::exists(input, ec)) return Status::NotFound(input, "no such file or directory");
    return std::vector<std::string>{input};
  }
  std::vector<std::string> found;
  for (fs::directory_iterator it(input, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().ends_with(".trend.db") && it->is_regular_file(ec)) found.push_back(it->path().string());
  }
  if (ec) return Status::IOError(input, "cannot read the directory: " + ec.message());
  if (found.empty()) return Status::NotFound(input, "no *.trend.db in the directory");
  std::sort(found.begin(), found.end());
  return found;
}

// "dump_data.trend.db" -> "dump_data.trend.html", beside it.
std::string PageBeside(const std::string& db) {
  fs::path page(db);
  page.replace_extension(".html");
  return page.string();
}

}  // namespace

Result<TrendPageReport> WriteTrendPages(const TrendPageOptions& options, const JobContext& ctx) {
  MSP_ASSIGN_OR_RETURN(const std::vector<std::string> databases, Databases(options.input));
  if (!options.output.empty() && databases.size() > 1) {
    return Status::InvalidInput(options.input, "holds several trend databases: -o names one page; leave it out to "
                                               "write a page beside each");
  }
  internal::TrendRowFilter filter{options.first_step, options.last_step, options.ranks, options.max_rows};
  TrendPageReport report;
  for (size_t i = 0; i < databases.size(); ++i) {
    const std::string& path = databases[i];
    MSP_ASSIGN_OR_RETURN(internal::SqliteDb db, internal::SqliteDb::Open(path, internal::SqliteDb::Mode::kReadOnly));
    MSP_ASSIGN_OR_RETURN(const internal::TrendPageData data,
                         internal::ReadTrendPageData(db, fs::path(path).filename().string(), filter));
    const std::string page = options.output.empty() ? PageBeside(path) : options.output;
    const std::string title = "trend " + fs::path(path).filename().string();
    const std::string script = internal::PageScript(internal::TrendPageJs());
    MSP_RETURN_IF_ERROR(internal::WriteHtmlPage(page, {title, internal::TrendPageCss(), data.json, script}));
    report.pages.push_back(page);
    report.rows += data.rows;
    if (ctx.progress) ctx.progress(path, i + 1, databases.size());
  }
  return report;
}

}  // namespace msprobe::compare
