// Where msprobe's training monitor leaves its csv files (docs/trend.md §12): a directory per rank,
// "<time>-rank<N>-<id>" with the time as "Dec03_21-34-40", holding "<metric>_<first step>-<last
// step>.csv" files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

struct MonitorFile {
  size_t metric = 0;  // index into kMonitorMetrics
  std::string path;
};

struct MonitorRankDir {
  int64_t rank = 0;
  std::string dir;
  std::vector<MonitorFile> files;  // in natural name order; never empty
};

// The rank directories under `root` that hold csv files, in natural name order. A rank number met
// twice keeps the place of its first directory and the files of its last, as msprobe keeps the last
// it lists. Errors: `root` is not a readable directory, a rank directory whose time is not a date
// ("Dec03_21-34-40").
Result<std::vector<MonitorRankDir>> ScanMonitorRoot(const std::string& root);

// The rank of a directory name matching msprobe's "<up to 20 of [A-Za-z0-9_-]>-rank<1-5 digits>-"
// at its start, with the part before "-rank" (the time); nullopt for any other name.
struct MonitorDirName {
  std::string_view time;
  int64_t rank = 0;
};
std::optional<MonitorDirName> ParseMonitorDirName(std::string_view name);
// Whether `time` reads as Python's strptime(time, "%b%d_%H-%M-%S") reads it (a day of year 1900).
bool ValidMonitorTime(std::string_view time);
// The metric (index into kMonitorMetrics) of a file name "<metric>_<digits>-<digits>.csv…", or
// nullopt for a file data2db does not read.
std::optional<size_t> MonitorMetricOfFile(std::string_view file_name);

}  // namespace msprobe::compare::internal
