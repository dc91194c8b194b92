#include "trend/monitor_csv_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "msprobe/dump/text/csv_reader.h"
#include "trend/trend_value_internal.h"

namespace msprobe::compare::internal {
namespace {

constexpr size_t kAbsent = static_cast<size_t>(-1);

// Where the columns data2db reads are in a file's header (a repeated name counts once, as pandas
// renames the later ones).
struct Columns {
  size_t name = kAbsent, vpp_stage = kAbsent, step = kAbsent, micro_step = kAbsent;
  std::array<size_t, kMonitorStats.size()> stats;
  size_t width = 0;
};

Columns ColumnsOf(std::span<const std::string_view> header) {
  Columns c;
  c.stats.fill(kAbsent);
  c.width = header.size();
  for (size_t i = header.size(); i-- > 0;) {  // backwards, so the first of repeated names wins
    const std::string_view h = header[i];
    if (h == "name") c.name = i;
    if (h == "vpp_stage") c.vpp_stage = i;
    if (h == "step") c.step = i;
    if (h == "micro_step") c.micro_step = i;
    const auto stat = std::find(kMonitorStats.begin(), kMonitorStats.end(), h);
    if (stat != kMonitorStats.end()) c.stats[static_cast<size_t>(stat - kMonitorStats.begin())] = i;
  }
  return c;
}

// int() of what pandas made of the cell: an integer, or a number with a fraction (a column of
// floats) cut to its integer part; nothing for a missing or non-numeric cell.
std::optional<int64_t> IntOfCell(std::span<const std::string_view> fields, size_t column) {
  if (column >= fields.size()) return std::nullopt;
  if (std::optional<int64_t> i = PythonInt(fields[column])) return i;
  const std::optional<double> d = PythonFloat(fields[column]);
  if (!d || !std::isfinite(*d) || std::fabs(*d) >= 9.2e18) return std::nullopt;
  return static_cast<int64_t>(std::trunc(*d));
}

}  // namespace

Result<MonitorCsvSummary> ReadMonitorCsv(Bytes text, const std::string& source, const MonitorRowVisitor& visit) {
  MonitorCsvSummary summary;
  Columns columns;
  bool header = true;
  MonitorCsvRow row;
  Status status = ReadCsv(text, source, [&](uint64_t line, std::span<const std::string_view> fields) -> Status {
    if (header) {
      header = false;
      columns = ColumnsOf(fields);
      for (size_t i = 0; i < kMonitorStats.size(); ++i) {
        if (columns.stats[i] != kAbsent) summary.stat_columns |= 1u << i;
      }
      return Status::Ok();
    }
    if (fields.size() > columns.width) {
      return Status::InvalidInput(source, fmt::format("line {}: {} fields, the header has {}", line, fields.size(),
                                                      columns.width));
    }
    const std::optional<int64_t> vpp = IntOfCell(fields, columns.vpp_stage);
    const std::optional<int64_t> step = columns.step == kAbsent ? 0 : IntOfCell(fields, columns.step);
    const std::optional<int64_t> micro = columns.micro_step == kAbsent ? 0 : IntOfCell(fields, columns.micro_step);
    if (columns.name == kAbsent || !vpp || !step || !micro) {
      ++summary.skipped;
      return Status::Ok();
    }
    const std::string_view name = columns.name < fields.size() ? fields[columns.name] : std::string_view();
    row.name = IsMissingCell(name) ? "nan" : name;
    row.vpp_stage = *vpp;
    row.step = *step;
    row.micro_step = *micro;
    for (size_t i = 0; i < kMonitorStats.size(); ++i) {
      const size_t at = columns.stats[i];
      row.stats[i] = at < fields.size() ? TrendValueOfCell(fields[at]) : std::nullopt;
    }
    ++summary.rows;
    return visit(row);
  }, kMaxCsvFields);
  MSP_RETURN_IF_ERROR(status);
  return summary;
}

}  // namespace msprobe::compare::internal
