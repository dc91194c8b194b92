// The summary sheet of our xlsx (docs/compatibility.md, "Outputs"): counts per Result, the first error in execution
// order with a link to its row, and a chart of the main metric along the row order.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "msprobe/compare/metrics/thresholds.h"
#include "xlsx/xlsx_common_internal.h"
#include "output/xlsx_summary_sheet_internal.h"

namespace msprobe::compare::internal {
namespace {

// Left block: labels in A, values in B. Along the rows: row number in D, the metric in E, what the
// chart plots in F and, on error rows only, in G; the chart at I2.
constexpr uint32_t kLabelCol = 0, kValueCol = 1, kRowNoCol = 3, kMetricCol = 4, kPlottedCol = 5, kErrorCol = 6,
                   kChartCol = 8;
constexpr uint64_t kLeftRows = 15;
// Excel 2007's limit of points in one chart series; longer tables are charted per bucket of rows.
constexpr size_t kMaxChartPoints = 32000;
constexpr double kLabelWidth = 14, kValueWidth = 50, kMetricWidth = 16;
// The log axis cannot show 0: values below this (an exact match; msprobe rounds Cosine above 0.9999
// to 6 decimals, so 1 - Cosine is otherwise at least 1e-6) are plotted on it.
constexpr double kPlotFloor = 1e-10;
constexpr uint32_t kSeriesRgb = 0x4472C4, kErrorRgb = 0xFF0000;  // Office's first series blue; our error red
constexpr uint8_t kErrorMarkerSize = 6;

std::optional<double> ParseDouble(std::string_view s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::vector<XlsxDataSheet> PlanSheets(size_t rows, size_t max_rows_per_sheet) {
  if (FitsOneSheet(rows, max_rows_per_sheet)) return {{kOneDataSheet, 0, rows}};
  const size_t slices = (rows + max_rows_per_sheet - 1) / max_rows_per_sheet;
  const size_t slice_rows = (rows + slices - 1) / slices;
  std::vector<XlsxDataSheet> sheets;
  for (size_t i = 0; i * slice_rows < rows; ++i) {
    sheets.push_back({"part_" + std::to_string(i), i * slice_rows, std::min(slice_rows, rows - i * slice_rows)});
  }
  return sheets;
}

CompareStyles CompareStyles::AddTo(XlsxWorkbook* book) {
  CompareStyles styles;
  XlsxCellStyle style;
  style.fill_rgb = kRedFill;
  styles.error = book->AddStyle(style);
  style.fill_rgb = kYellowFill;
  styles.warning = book->AddStyle(style);
  style.fill_rgb = 0xFFA500;
  styles.first_diff = book->AddStyle(style);
  XlsxCellStyle bold;
  bold.bold = true;
  styles.bold = book->AddStyle(bold);
  XlsxCellStyle link;
  link.hyperlink = true;
  styles.link = book->AddStyle(link);
  XlsxCellStyle percent;
  percent.number_format = 10;  // built-in "0.00%"
  styles.percent = book->AddStyle(percent);
  return styles;
}

std::optional<double> MetricValue(const Cell& cell) {
  std::optional<double> v;
  if (cell.is_number()) {
    v = cell.number();
  } else if (cell.is_text() && !cell.text().empty()) {
    std::string_view s = cell.text();
    // G3 statistics-mode relative errors are texts such as "12.3%" (docs/compare.md §4.3).
    if (s.back() == '%') {
      // "12.3%" read as the decimal 12.3e-2, correctly rounded (0.123), not as 12.3 / 100, which
      // rounds twice (0.12300000000000001).
      const std::string_view number = s.substr(0, s.size() - 1);
      if (number.find_first_of("eE") == std::string_view::npos) {
        v = ParseDouble(std::string(number) + "e-2");
      } else {
        v = ParseDouble(number);
        if (v) *v /= 100;
      }
    } else {
      v = ParseDouble(s);
    }
  }
  if (v && !std::isfinite(*v)) return std::nullopt;
  return v;
}

void XlsxSummaryFacts::Add(const ResultRow& row) {
  const size_t index = rows++;
  if (!row.matched) ++(row.golden_only ? unmatched_golden : unmatched_target);
  switch (row.result) {
    case Verdict::kPass: pass += row.Compared() ? 1 : 0; break;
    case Verdict::kWarning: ++warning; break;
    case Verdict::kError:
      ++error;
      if (!first_error) {
        first_error = index;
        first_error_name = row.target_name;
      }
      break;
  }
  if (!charted()) return;
  const size_t main = mode == CompareMode::kTensor ? size_t{kCosine} : size_t{kNormRel};
  const std::optional<double> v = main < row.metrics.size() ? MetricValue(row.metrics[main]) : std::nullopt;
  metric.push_back(v.value_or(std::numeric_limits<double>::quiet_NaN()));
  is_error.push_back(row.result == Verdict::kError);
}

XlsxSummarySheet::XlsxSummarySheet(const XlsxSummaryFacts& facts, const std::vector<XlsxDataSheet>& sheets,
                                   const CompareStyles& styles)
    : facts_(facts), sheets_(sheets), styles_(styles) {
  chart_ = facts.charted() && facts.rows > 0;
  const bool tensor = facts.mode == CompareMode::kTensor;
  metric_name_ = tensor ? "Cosine" : "NormRelativeErr";
  plotted_name_ = tensor ? "1 - Cosine" : "NormRelativeErr";
  if (chart_) points_ = ChartPoints();
}

double XlsxSummarySheet::Plotted(double metric) const {
  const double v = facts_.mode == CompareMode::kTensor ? 1 - metric : std::fabs(metric);
  return std::max(v, kPlotFloor);
}

// One point per row, or per bucket of rows past kMaxChartPoints, keeping the worst value (lowest
// Cosine, highest NormRelativeErr) so a single bad row still shows.
std::vector<XlsxSummarySheet::ChartPoint> XlsxSummarySheet::ChartPoints() const {
  const size_t n = facts_.metric.size();
  const size_t stride = (n + kMaxChartPoints - 1) / kMaxChartPoints;
  const bool lower_is_worse = facts_.mode == CompareMode::kTensor;
  std::vector<ChartPoint> points;
  for (size_t begin = 0; begin < n; begin += stride) {
    ChartPoint point{begin + 1, std::nullopt};
    for (size_t i = begin; i < std::min(n, begin + stride); ++i) {
      point.error = point.error || facts_.is_error[i];
      const double v = facts_.metric[i];
      if (std::isnan(v)) continue;
      if (!point.value || (lower_is_worse ? v < *point.value : v > *point.value)) point.value = v;
    }
    points.push_back(point);
  }
  return points;
}

std::pair<const XlsxDataSheet*, size_t> XlsxSummarySheet::Locate(size_t row) const {
  const XlsxDataSheet* sheet = &sheets_.front();
  for (const XlsxDataSheet& s : sheets_) {
    if (row >= s.first_row && row < s.first_row + s.rows) sheet = &s;
  }
  return {sheet, row - sheet->first_row + 2};
}

std::string XlsxSummarySheet::Link(size_t row) const {
  const auto [sheet, xl_row] = Locate(row);
  // Quoted always, as Excel's own "Place in This Document" links are.
  return "'" + sheet->name + "'!A" + std::to_string(xl_row);
}

uint64_t XlsxSummarySheet::Rows() const { return std::max<uint64_t>(kLeftRows, points_.size() + 1); }

std::vector<double> XlsxSummarySheet::Widths() const {
  if (!chart_) return {kLabelWidth, kValueWidth};
  return {kLabelWidth, kValueWidth, 0, 0, kMetricWidth, kMetricWidth, kMetricWidth};
}

std::optional<XlsxChart> XlsxSummarySheet::Chart() const {
  if (!chart_) return std::nullopt;
  const uint64_t last = points_.size() + 1;
  XlsxChart chart;
  chart.title = std::string(plotted_name_) + " along the execution order";
  chart.x_axis_title = "row";
  chart.y_axis_title = fmt::format("{} (log scale; below {:g} drawn at {:g})", plotted_name_, kPlotFloor, kPlotFloor);
  chart.log_y = true;
  const std::string x = XlsxRangeRef(kName, kRowNoCol, 2, last);
  chart.series.push_back({plotted_name_, x, XlsxRangeRef(kName, kPlottedCol, 2, last), kSeriesRgb, true, 3});
  chart.series.push_back({"error rows", x, XlsxRangeRef(kName, kErrorCol, 2, last), kErrorRgb, false, kErrorMarkerSize});
  chart.column = kChartCol;
  chart.row = 1;
  return chart;
}

void XlsxSummarySheet::Format(uint64_t first, uint64_t end, XlsxRowBatch* batch) const {
  // Relative errors read best as percentages, as G3 prints them.
  const uint32_t metric_style = facts_.mode == CompareMode::kSummary ? styles_.percent : 0;
  for (uint64_t r = first; r < end; ++r) {
    batch->BeginRow(r + 1);
    switch (r) {
      case 0:
        batch->Text(kLabelCol, "Result", styles_.bold);
        batch->Text(kValueCol, "Count", styles_.bold);
        break;
      case 1: case 2: case 3: case 4: {
        static const char* const kLabels[] = {"pass", "warning", "error", "total"};
        const size_t counts[] = {facts_.pass, facts_.warning, facts_.error, facts_.rows};
        batch->Text(kLabelCol, kLabels[r - 1]);
        batch->Number(kValueCol, static_cast<double>(counts[r - 1]));
        break;
      }
      case 5: case 6: case 7: {
        // The rows the Results do not count (docs/compare.md §5.4).
        static const char* const kLabels[] = {"not compared: no golden counterpart",
                                              "golden rows matched by no target row", "unreadable tensors"};
        const uint64_t counts[] = {facts_.unmatched_target, facts_.unmatched_golden, facts_.unreadable_tensors};
        batch->Text(kLabelCol, kLabels[r - 5]);
        batch->Number(kValueCol, static_cast<double>(counts[r - 5]));
        break;
      }
      case 8: {
        // --attribute: the first cause, named above the first error (docs/ops.md §7).
        if (!facts_.attribute) break;
        batch->Text(kLabelCol, "First cause", styles_.bold);
        if (!facts_.first_cause_row) {
          batch->Text(kValueCol, "none");
          break;
        }
        batch->Link(kValueCol, ExcelText(facts_.first_cause_text), Link(*facts_.first_cause_row), styles_.link);
        break;
      }
      case 9:
        batch->Text(kLabelCol, "First error", styles_.bold);
        if (facts_.first_error) {
          batch->Link(kValueCol, ExcelText(facts_.first_error_name), Link(*facts_.first_error), styles_.link);
        } else {
          batch->Text(kValueCol, "none");
        }
        break;
      case 10:
        if (!facts_.first_error) break;
        batch->Text(kLabelCol, "Sheet");
        batch->Text(kValueCol, Locate(*facts_.first_error).first->name);
        break;
      case 11:
        if (!facts_.first_error) break;
        batch->Text(kLabelCol, "Row");
        batch->Number(kValueCol, static_cast<double>(Locate(*facts_.first_error).second));
        break;
      case 13:
        if (!facts_.first_diff_row) break;
        batch->Text(kLabelCol, "First diff", styles_.bold);
        batch->Link(kValueCol, ExcelText(facts_.first_diff_name), Link(*facts_.first_diff_row), styles_.link);
        break;
      case 14:
        if (!facts_.first_diff_row) break;
        batch->Text(kLabelCol, "Stack");
        batch->Text(kValueCol, ExcelText(facts_.first_diff_stack));
        break;
      default:
        break;
    }
    if (!chart_ || r > points_.size()) continue;
    if (r == 0) {
      batch->Text(kRowNoCol, "Row", styles_.bold);
      batch->Text(kMetricCol, metric_name_, styles_.bold);
      batch->Text(kPlottedCol, fmt::format("{} (plotted)", plotted_name_), styles_.bold);
      batch->Text(kErrorCol, "error rows", styles_.bold);
      continue;
    }
    const ChartPoint& point = points_[r - 1];
    batch->Number(kRowNoCol, static_cast<double>(point.row_no));
    if (!point.value) continue;
    batch->Number(kMetricCol, *point.value, metric_style);
    batch->Number(kPlottedCol, Plotted(*point.value));
    if (point.error) batch->Number(kErrorCol, Plotted(*point.value));
  }
}

}  // namespace msprobe::compare::internal
