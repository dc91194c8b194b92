// The summary sheet of our xlsx (docs/compatibility.md, "Outputs"): counts per Result, the first error in execution
// order with a link to its row, and a line chart of the main metric along the row order.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "msprobe/compare/metrics/thresholds.h"
#include "xlsx/xlsx_common_internal.h"
#include "output/xlsx_summary_sheet_internal.h"

namespace msprobe::compare::internal {
namespace {

// Left block: labels in A, values in B. Chart data in D (row number) and E (metric), chart at G2.
constexpr uint32_t kLabelCol = 0, kValueCol = 1, kRowNoCol = 3, kMetricCol = 4, kChartCol = 6;
constexpr uint64_t kLeftRows = 12;
// Excel 2007's limit of points in one chart series; longer tables are charted per bucket of rows.
constexpr size_t kMaxChartPoints = 32000;
constexpr double kLabelWidth = 14, kValueWidth = 50, kMetricWidth = 16;

std::optional<double> ParseDouble(std::string_view s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// Opens its row at the first cell, so rows without cells are left out as Excel does.
class LazyRow {
 public:
  LazyRow(XlsxRowXml* xml, uint64_t row) : xml_(xml), row_(row) {}
  ~LazyRow() {
    if (open_) xml_->EndRow();
  }
  XlsxRowXml* operator->() {
    if (!open_) xml_->BeginRow(row_);
    open_ = true;
    return xml_;
  }

 private:
  XlsxRowXml* xml_;
  uint64_t row_;
  bool open_ = false;
};

}  // namespace

std::vector<XlsxCellStyle> CompareCellStyles() {
  std::vector<XlsxCellStyle> styles(kStylePercent - kXlsxFirstCustomStyle + 1);
  styles[kStyleError - kXlsxFirstCustomStyle].fill_rgb = kRedFill;
  styles[kStyleWarning - kXlsxFirstCustomStyle].fill_rgb = kYellowFill;
  styles[kStyleFirstDiff - kXlsxFirstCustomStyle].fill_rgb = 0xFFA500;
  styles[kStyleBold - kXlsxFirstCustomStyle].bold = true;
  styles[kStyleLink - kXlsxFirstCustomStyle].hyperlink = true;
  styles[kStylePercent - kXlsxFirstCustomStyle].number_format = 10;  // built-in "0.00%"
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

XlsxSummarySheet::XlsxSummarySheet(const ResultTable& table, const std::vector<XlsxDataSheet>& sheets)
    : table_(table), sheets_(sheets) {
  for (size_t i = 0; i < table.rows.size(); ++i) {
    switch (table.rows[i].result) {
      case Verdict::kPass: ++pass_; break;
      case Verdict::kWarning: ++warning_; break;
      case Verdict::kError:
        ++error_;
        if (!first_error_) first_error_ = i;
        break;
    }
  }
  chart_ = table.mode != CompareMode::kMd5 && !table.rows.empty();
  metric_ = table.mode == CompareMode::kTensor ? static_cast<int>(kCosine) : static_cast<int>(kNormRel);
  metric_name_ = table.mode == CompareMode::kTensor ? "Cosine" : "NormRelativeErr";
  if (chart_) points_ = ChartPoints();
}

// One point per row, or per bucket of rows past kMaxChartPoints, keeping the worst value (lowest
// Cosine, highest NormRelativeErr) so a single bad row still shows.
std::vector<XlsxSummarySheet::ChartPoint> XlsxSummarySheet::ChartPoints() const {
  const size_t n = table_.rows.size();
  const size_t stride = (n + kMaxChartPoints - 1) / kMaxChartPoints;
  const bool lower_is_worse = table_.mode == CompareMode::kTensor;
  std::vector<ChartPoint> points;
  for (size_t begin = 0; begin < n; begin += stride) {
    ChartPoint point{begin + 1, std::nullopt};
    for (size_t i = begin; i < std::min(n, begin + stride); ++i) {
      const std::vector<Cell>& metrics = table_.rows[i].metrics;
      if (static_cast<size_t>(metric_) >= metrics.size()) continue;
      const std::optional<double> v = MetricValue(metrics[metric_]);
      if (v && (!point.value || (lower_is_worse ? *v < *point.value : *v > *point.value))) point.value = v;
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

XlsxSheetLayout XlsxSummarySheet::Layout() const {
  XlsxSheetLayout layout;
  layout.name = kName;
  layout.widths = {kLabelWidth, kValueWidth};
  if (chart_) {
    layout.widths.insert(layout.widths.end(), {0, 0, kMetricWidth});
    // Relative errors read best as percentages, as G3 prints them.
    if (table_.mode == CompareMode::kSummary) layout.column_styles = {0, 0, 0, 0, kStylePercent};
  }
  layout.rows = std::max<uint64_t>(kLeftRows, points_.size() + 1);
  uint64_t text_bytes = 0;
  if (first_error_) {
    text_bytes += table_.rows[*first_error_].npu_name.size() * 2;  // the cell and the link's display
    layout.hyperlinks.push_back({"B7", Link(*first_error_), table_.rows[*first_error_].npu_name});
  }
  if (table_.first_diff_row) {
    const std::string& name = table_.rows[*table_.first_diff_row].npu_name;
    text_bytes += name.size() * 2 + kExcelMaxCellChars * 4;  // and the stack, at most 32767 characters
    layout.hyperlinks.push_back({"B11", Link(*table_.first_diff_row), name});
  }
  // A row's markup stays under 256 bytes; an escaped text byte under 7 (_x001F_).
  layout.xml_bytes_bound = layout.rows * 256 + text_bytes * 7 + 8192;
  if (chart_) {
    XlsxLineChart chart;
    chart.title = std::string(metric_name_) + " along the execution order";
    chart.series_name = metric_name_;
    chart.x_axis_title = "row";
    chart.y_axis_title = metric_name_;
    chart.categories = XlsxRangeRef(kName, kRowNoCol, 2, points_.size() + 1);
    chart.values = XlsxRangeRef(kName, kMetricCol, 2, points_.size() + 1);
    chart.column = kChartCol;
    chart.row = 1;
    layout.chart = std::move(chart);
  }
  return layout;
}

void XlsxSummarySheet::Format(uint64_t first, uint64_t end, XlsxRowXml* xml) const {
  const uint32_t metric_style = table_.mode == CompareMode::kSummary ? kStylePercent : 0;
  for (uint64_t r = first; r < end; ++r) {
    LazyRow row(xml, r + 1);
    switch (r) {
      case 0:
        row->Text(kLabelCol, "Result", kStyleBold);
        row->Text(kValueCol, "Count", kStyleBold);
        break;
      case 1: case 2: case 3: case 4: {
        static const char* const kLabels[] = {"pass", "warning", "error", "total"};
        const size_t counts[] = {pass_, warning_, error_, table_.rows.size()};
        row->Text(kLabelCol, kLabels[r - 1]);
        row->Number(kValueCol, static_cast<double>(counts[r - 1]));
        break;
      }
      case 6:
        row->Text(kLabelCol, "First error", kStyleBold);
        if (first_error_) {
          row->Text(kValueCol, ExcelText(table_.rows[*first_error_].npu_name), kStyleLink);
        } else {
          row->Text(kValueCol, "none");
        }
        break;
      case 7:
        if (!first_error_) break;
        row->Text(kLabelCol, "Sheet");
        row->Text(kValueCol, Locate(*first_error_).first->name);
        break;
      case 8:
        if (!first_error_) break;
        row->Text(kLabelCol, "Row");
        row->Number(kValueCol, static_cast<double>(Locate(*first_error_).second));
        break;
      case 10:
        if (!table_.first_diff_row) break;
        row->Text(kLabelCol, "First diff", kStyleBold);
        row->Text(kValueCol, ExcelText(table_.rows[*table_.first_diff_row].npu_name), kStyleLink);
        break;
      case 11: {
        if (!table_.first_diff_row) break;
        // Only an API's first row carries its stack.
        size_t api_first = *table_.first_diff_row;
        const std::string& api = table_.rows[api_first].api;
        while (api_first > 0 && table_.rows[api_first - 1].api == api && table_.rows[api_first].stack_info == "N/A") {
          --api_first;
        }
        row->Text(kLabelCol, "Stack");
        row->Text(kValueCol, ExcelText(table_.rows[api_first].stack_info));
        break;
      }
      default:
        break;
    }
    if (!chart_ || r > points_.size()) continue;
    if (r == 0) {
      row->Text(kRowNoCol, "Row", kStyleBold);
      row->Text(kMetricCol, metric_name_, kStyleBold);
      continue;
    }
    const ChartPoint& point = points_[r - 1];
    row->Number(kRowNoCol, static_cast<double>(point.row_no));
    if (point.value) row->Number(kMetricCol, *point.value, metric_style);
  }
}

}  // namespace msprobe::compare::internal
