// The summary sheet of our xlsx (spec README §2): counts per Result, the first error in execution
// order with a link to its row, and a line chart of the main metric along the row order.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "xlsx_summary_sheet_internal.h"

namespace msprobe::compare::internal {
namespace {

constexpr char kSheetName[] = "summary";
// Left block: labels in A, values in B. Chart data in D (row number) and E (metric), chart at G2.
constexpr lxw_col_t kLabelCol = 0, kValueCol = 1, kRowNoCol = 3, kMetricCol = 4, kChartCol = 6;
// Excel 2007's limit of points in one chart series; longer tables are charted per bucket of rows.
constexpr size_t kMaxChartPoints = 32000;

std::optional<double> ParseDouble(std::string_view s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

struct ChartPoint {
  size_t row_no;               // 1-based table row where the bucket starts
  std::optional<double> value; // the bucket's worst metric; a gap when none is a number
};

// One point per row, or per bucket of rows past kMaxChartPoints, keeping the worst value (lowest
// Cosine, highest NormRelativeErr) so a single bad row still shows.
std::vector<ChartPoint> ChartPoints(const ResultTable& table, int metric) {
  const size_t n = table.rows.size();
  const size_t stride = (n + kMaxChartPoints - 1) / kMaxChartPoints;
  const bool lower_is_worse = table.mode == CompareMode::kTensor;
  std::vector<ChartPoint> points;
  for (size_t begin = 0; begin < n; begin += stride) {
    ChartPoint point{begin + 1, std::nullopt};
    for (size_t i = begin; i < std::min(n, begin + stride); ++i) {
      const std::vector<Cell>& metrics = table.rows[i].metrics;
      if (static_cast<size_t>(metric) >= metrics.size()) continue;
      const std::optional<double> v = MetricValue(metrics[metric]);
      if (v && (!point.value || (lower_is_worse ? *v < *point.value : *v > *point.value))) point.value = v;
    }
    points.push_back(point);
  }
  return points;
}

// Rows 10-11: the row -da named as the first diff, linked, and its stack.
lxw_error WriteFirstDiff(lxw_worksheet* ws, lxw_row_t row, const ResultTable& table,
                         const std::vector<XlsxDataSheet>& sheets, lxw_format* bold) {
  const size_t diff = *table.first_diff_row;
  const ResultRow& r = table.rows[diff];
  if (row == 11) {
    // Only an API's first row carries its stack.
    size_t first = diff;
    while (first > 0 && table.rows[first - 1].api == r.api && table.rows[first].stack_info == "N/A") --first;
    lxw_error err = worksheet_write_string(ws, row, kLabelCol, "Stack", nullptr);
    const std::string stack = table.rows[first].stack_info.substr(0, 32767);
    return err ? err : worksheet_write_string(ws, row, kValueCol, stack.c_str(), nullptr);
  }
  const XlsxDataSheet* sheet = &sheets.front();
  for (const XlsxDataSheet& s : sheets) {
    if (diff >= s.first_row && diff < s.first_row + s.rows) sheet = &s;
  }
  const std::string url = "internal:'" + sheet->name + "'!A" + std::to_string(diff - sheet->first_row + 2);
  lxw_error err = worksheet_write_string(ws, row, kLabelCol, "First diff", bold);
  return err ? err : worksheet_write_url_opt(ws, row, kValueCol, url.c_str(), nullptr, r.npu_name.c_str(), nullptr);
}

}  // namespace

std::optional<double> MetricValue(const Cell& cell) {
  std::optional<double> v;
  if (cell.is_number()) {
    v = cell.number();
  } else if (cell.is_text() && !cell.text().empty()) {
    std::string_view s = cell.text();
    // G3 statistics-mode relative errors are texts such as "12.3%" (compare.md §4.3).
    if (s.back() == '%') {
      v = ParseDouble(s.substr(0, s.size() - 1));
      if (v) *v /= 100;
    } else {
      v = ParseDouble(s);
    }
  }
  if (v && !std::isfinite(*v)) return std::nullopt;
  return v;
}

Status AddSummarySheet(lxw_workbook* wb, const std::string& path, const ResultTable& table,
                       const std::vector<XlsxDataSheet>& sheets, lxw_format* bold) {
  lxw_worksheet* ws = workbook_add_worksheet(wb, kSheetName);
  if (!ws) return Status::IOError(path, std::string("cannot add sheet ") + kSheetName);

  size_t pass = 0, warning = 0, error = 0;
  std::optional<size_t> first_error;
  for (size_t i = 0; i < table.rows.size(); ++i) {
    const std::string& result = table.rows[i].result;
    if (result == "pass") ++pass;
    if (result == "warning") ++warning;
    if (result == "error") {
      ++error;
      if (!first_error) first_error = i;
    }
  }
  // Where the first error sits: its data sheet and 1-based Excel row (after the header row).
  const XlsxDataSheet* error_sheet = &sheets.front();
  size_t error_xl_row = 0;
  if (first_error) {
    for (const XlsxDataSheet& sheet : sheets) {
      if (*first_error >= sheet.first_row && *first_error < sheet.first_row + sheet.rows) error_sheet = &sheet;
    }
    error_xl_row = *first_error - error_sheet->first_row + 2;
  }
  const bool chart = table.mode != CompareMode::kMd5 && !table.rows.empty();
  const int metric = table.mode == CompareMode::kTensor ? static_cast<int>(kCosine) : static_cast<int>(kNormRel);
  const char* metric_name = table.mode == CompareMode::kTensor ? "Cosine" : "NormRelativeErr";

  // Relative errors read best as percentages, as G3 prints them.
  lxw_format* metric_format = nullptr;
  if (table.mode == CompareMode::kSummary) {
    metric_format = workbook_add_format(wb);
    if (!metric_format) return XlsxStatus(path, LXW_ERROR_MEMORY_MALLOC_FAILED);
    format_set_num_format(metric_format, "0.00%");
  }
  lxw_error err = worksheet_set_column(ws, kLabelCol, kLabelCol, 14, nullptr);
  if (!err) err = worksheet_set_column(ws, kValueCol, kValueCol, 50, nullptr);
  if (!err && chart) err = worksheet_set_column(ws, kMetricCol, kMetricCol, 16, metric_format);
  if (err) return XlsxStatus(path, err);

  // Constant-memory mode takes rows in ascending order only, so both blocks are written row by row.
  const lxw_row_t left_rows = 12;
  const std::vector<ChartPoint> points = chart ? ChartPoints(table, metric) : std::vector<ChartPoint>();
  const lxw_row_t last_row = std::max<lxw_row_t>(left_rows, static_cast<lxw_row_t>(points.size()) + 1);
  for (lxw_row_t row = 0; row < last_row && !err; ++row) {
    switch (row) {
      case 0:
        err = worksheet_write_string(ws, row, kLabelCol, "Result", bold);
        if (!err) err = worksheet_write_string(ws, row, kValueCol, "Count", bold);
        break;
      case 1: case 2: case 3: case 4: {
        static const char* const kLabels[] = {"pass", "warning", "error", "total"};
        const size_t counts[] = {pass, warning, error, table.rows.size()};
        err = worksheet_write_string(ws, row, kLabelCol, kLabels[row - 1], nullptr);
        if (!err) err = worksheet_write_number(ws, row, kValueCol, static_cast<double>(counts[row - 1]), nullptr);
        break;
      }
      case 6:
        err = worksheet_write_string(ws, row, kLabelCol, "First error", bold);
        if (err) break;
        if (!first_error) {
          err = worksheet_write_string(ws, row, kValueCol, "none", nullptr);
        } else {
          const std::string url = "internal:'" + error_sheet->name + "'!A" + std::to_string(error_xl_row);
          err = worksheet_write_url_opt(ws, row, kValueCol, url.c_str(), nullptr,
                                        table.rows[*first_error].npu_name.c_str(), nullptr);
        }
        break;
      case 7:
        if (!first_error) break;
        err = worksheet_write_string(ws, row, kLabelCol, "Sheet", nullptr);
        if (!err) err = worksheet_write_string(ws, row, kValueCol, error_sheet->name.c_str(), nullptr);
        break;
      case 8:
        if (!first_error) break;
        err = worksheet_write_string(ws, row, kLabelCol, "Row", nullptr);
        if (!err) err = worksheet_write_number(ws, row, kValueCol, static_cast<double>(error_xl_row), nullptr);
        break;
      case 10: case 11:
        if (table.first_diff_row) err = WriteFirstDiff(ws, row, table, sheets, bold);
        break;
      default:
        break;
    }
    if (err || !chart || row > points.size()) continue;
    if (row == 0) {
      err = worksheet_write_string(ws, row, kRowNoCol, "Row", bold);
      if (!err) err = worksheet_write_string(ws, row, kMetricCol, metric_name, bold);
      continue;
    }
    const ChartPoint& point = points[row - 1];
    err = worksheet_write_number(ws, row, kRowNoCol, static_cast<double>(point.row_no), nullptr);
    if (!err && point.value) err = worksheet_write_number(ws, row, kMetricCol, *point.value, metric_format);
  }
  if (err) return XlsxStatus(path, err);
  if (!chart) return Status::Ok();

  lxw_chart* line = workbook_add_chart(wb, LXW_CHART_LINE);
  if (!line) return XlsxStatus(path, LXW_ERROR_MEMORY_MALLOC_FAILED);
  lxw_chart_series* series = chart_add_series(line, nullptr, nullptr);
  if (!series) return XlsxStatus(path, LXW_ERROR_MEMORY_MALLOC_FAILED);
  const lxw_row_t n = static_cast<lxw_row_t>(points.size());
  chart_series_set_categories(series, kSheetName, 1, kRowNoCol, n, kRowNoCol);
  chart_series_set_values(series, kSheetName, 1, kMetricCol, n, kMetricCol);
  chart_series_set_name(series, metric_name);
  const std::string title = std::string(metric_name) + " along the execution order";
  chart_title_set_name(line, title.c_str());
  chart_axis_set_name(line->x_axis, "row");
  chart_axis_set_name(line->y_axis, metric_name);
  chart_legend_set_position(line, LXW_CHART_LEGEND_NONE);
  lxw_chart_options placement{};
  placement.x_scale = 2;
  placement.y_scale = 1.5;
  if (const lxw_error e = worksheet_insert_chart_opt(ws, 1, kChartCol, line, &placement)) return XlsxStatus(path, e);
  return Status::Ok();
}

}  // namespace msprobe::compare::internal
