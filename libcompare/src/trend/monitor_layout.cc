#include "trend/monitor_layout_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>

#include "msprobe/dump/framework/dump_layout.h"
#include "trend/trend_schema_internal.h"
#include "trend/trend_value_internal.h"

namespace msprobe::compare::internal {
namespace {

namespace fs = std::filesystem;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsWordOrDash(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-';
}

// 1 or 2 digits at `s` (strptime's %d, %H, %M, %S), advancing it; nullopt without one.
std::optional<int> TakeNumber(std::string_view* s) {
  size_t n = 0;
  while (n < 2 && n < s->size() && IsDigit((*s)[n])) ++n;
  if (n == 0) return std::nullopt;
  int value = 0;
  for (size_t i = 0; i < n; ++i) value = value * 10 + ((*s)[i] - '0');
  s->remove_prefix(n);
  return value;
}

bool TakeChar(std::string_view* s, char c) {
  if (s->empty() || s->front() != c) return false;
  s->remove_prefix(1);
  return true;
}

}  // namespace

std::optional<MonitorDirName> ParseMonitorDirName(std::string_view name) {
  // As the regular expression backtracks: the longest time first, then the most digits.
  const size_t valid = std::find_if_not(name.begin(), name.end(), IsWordOrDash) - name.begin();
  for (size_t time = std::min<size_t>(20, valid) + 1; time-- > 0;) {
    const std::string_view rest = name.substr(time);
    if (!rest.starts_with("-rank")) continue;
    for (size_t digits = 5; digits >= 1; --digits) {
      if (rest.size() < 5 + digits + 1 || rest[5 + digits] != '-') continue;
      const std::string_view number = rest.substr(5, digits);
      if (!std::all_of(number.begin(), number.end(), IsDigit)) continue;
      return MonitorDirName{name.substr(0, time), *PythonInt(number)};
    }
  }
  return std::nullopt;
}

bool ValidMonitorTime(std::string_view time) {
  static constexpr std::array<std::string_view, 12> kMonths = {"jan", "feb", "mar", "apr", "may", "jun",
                                                               "jul", "aug", "sep", "oct", "nov", "dec"};
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};  // 1900
  if (time.size() < 3) return false;
  std::string month(time.substr(0, 3));
  for (char& c : month) c = static_cast<char>(c | 0x20);
  const auto m = std::find(kMonths.begin(), kMonths.end(), month);
  if (m == kMonths.end()) return false;
  std::string_view s = time.substr(3);
  const std::optional<int> day = TakeNumber(&s);
  if (!day || *day < 1 || *day > kDays[static_cast<size_t>(m - kMonths.begin())] || !TakeChar(&s, '_')) return false;
  const std::optional<int> hour = TakeNumber(&s);
  if (!hour || *hour > 23 || !TakeChar(&s, '-')) return false;
  const std::optional<int> minute = TakeNumber(&s);
  if (!minute || *minute > 59 || !TakeChar(&s, '-')) return false;
  const std::optional<int> second = TakeNumber(&s);
  return second && *second <= 61 && s.empty();
}

std::optional<size_t> MonitorMetricOfFile(std::string_view file_name) {
  const size_t last = file_name.rfind('_');
  if (last == std::string_view::npos) return std::nullopt;
  const auto metric = std::find(kMonitorMetrics.begin(), kMonitorMetrics.end(), file_name.substr(0, last));
  if (metric == kMonitorMetrics.end()) return std::nullopt;
  // "_<digits>-<digits>.csv" must follow; anything may come after it, as re.match allows.
  std::string_view rest = file_name.substr(last + 1);
  for (const char separator : {'-', '.'}) {
    const size_t digits = std::find_if_not(rest.begin(), rest.end(), IsDigit) - rest.begin();
    if (digits == 0 || digits >= rest.size() || rest[digits] != separator) return std::nullopt;
    rest.remove_prefix(digits + 1);
  }
  if (!rest.starts_with("csv")) return std::nullopt;
  return static_cast<size_t>(metric - kMonitorMetrics.begin());
}

Result<std::vector<MonitorRankDir>> ScanMonitorRoot(const std::string& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return Status::NotFound(root, "no such directory");
  std::vector<fs::path> entries;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(it->path());
  if (ec) return Status::IOError(root, "cannot read the directory: " + ec.message());
  const auto natural = [](const fs::path& a, const fs::path& b) {
    return NaturalLess(a.filename().string(), b.filename().string());
  };
  std::sort(entries.begin(), entries.end(), natural);
  // A rank met twice keeps the place of its first directory and the last directory, as a dict does.
  std::vector<std::pair<int64_t, fs::path>> dirs;
  for (const fs::path& dir : entries) {
    const std::string name = dir.filename().string();  // `parsed` views it
    const std::optional<MonitorDirName> parsed = ParseMonitorDirName(name);
    if (!parsed || !fs::is_directory(dir, ec)) continue;
    if (!ValidMonitorTime(parsed->time)) {
      return Status::InvalidInput(dir.string(), fmt::format("'{}' is not a time like Dec03_21-34-40", parsed->time));
    }
    const auto same = std::find_if(dirs.begin(), dirs.end(), [&](const auto& d) { return d.first == parsed->rank; });
    if (same != dirs.end()) {
      same->second = dir;
    } else {
      dirs.emplace_back(parsed->rank, dir);
    }
  }
  std::vector<MonitorRankDir> ranks;
  for (const auto& [rank_number, dir] : dirs) {
    MonitorRankDir rank{rank_number, dir.string(), {}};
    std::vector<fs::path> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) files.push_back(it->path());
    if (ec) return Status::IOError(dir.string(), "cannot read the directory: " + ec.message());
    std::sort(files.begin(), files.end(), natural);
    for (const fs::path& file : files) {
      const std::optional<size_t> metric = MonitorMetricOfFile(file.filename().string());
      if (metric && fs::is_regular_file(file, ec)) rank.files.push_back(MonitorFile{*metric, file.string()});
    }
    if (!rank.files.empty()) ranks.push_back(std::move(rank));
  }
  return ranks;
}

}  // namespace msprobe::compare::internal
