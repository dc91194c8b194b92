#include "msprobe/compare/xlsx/xlsx_workbook.h"

#include <fmt/format.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <xlsxwriter.h>

#include <algorithm>
#include <filesystem>

#include "xlsx/xlsx_cell_text_internal.h"
#include "xlsx/xlsx_common_internal.h"
#include "xlsx/xlsx_package_deflate_internal.h"

namespace msprobe::compare {
namespace {

constexpr size_t kMaxSheetName = 31;
constexpr uint64_t kRowsPerBatch = 512;
constexpr double kChartScaleX = 2, kChartScaleY = 1.5;  // of the default 480 × 288 pixels
constexpr double kChartLineWidth = 1.25;

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

}  // namespace

std::string XlsxSheetRef(std::string_view sheet) {
  // Excel leaves a name bare when it reads as a name: a letter or '_' first, then letters, digits,
  // '_' and '.', and not a cell reference such as "AB12".
  const auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  bool bare = !sheet.empty() && (alpha(sheet[0]) || sheet[0] == '_');
  for (char c : sheet) bare = bare && (alpha(c) || digit(c) || c == '_' || c == '.');
  size_t letters = 0;
  while (letters < sheet.size() && alpha(sheet[letters])) ++letters;
  const bool cell_like = letters > 0 && letters <= 3 && letters < sheet.size() &&
                         std::all_of(sheet.begin() + static_cast<std::ptrdiff_t>(letters), sheet.end(), digit);
  if (bare && !cell_like) return std::string(sheet);
  std::string quoted = "'";
  for (char c : sheet) {
    quoted.push_back(c);
    if (c == '\'') quoted.push_back('\'');
  }
  return quoted + "'";
}

std::string XlsxRangeRef(std::string_view sheet, uint32_t column, uint64_t first_row, uint64_t last_row) {
  char col[LXW_MAX_COL_NAME_LENGTH];
  lxw_col_to_name(col, static_cast<lxw_col_t>(column), LXW_TRUE);
  return fmt::format("={}!{}${}:{}${}", XlsxSheetRef(sheet), col, first_row, col, last_row);
}

Result<std::unique_ptr<XlsxWorkbook>> XlsxWorkbook::Create(const std::string& path, uint64_t cells) {
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  const std::filesystem::path dir = std::filesystem::path(file.temp_path()).parent_path();
  std::string tmpdir = dir.empty() ? std::filesystem::path(".").string() : dir.string();
  std::unique_ptr<XlsxWorkbook> book(new XlsxWorkbook(std::move(file), std::move(tmpdir)));
  lxw_workbook_options options{};
  options.constant_memory = LXW_TRUE;
  options.tmpdir = book->tmpdir_.data();
  options.use_zip64 = cells > kXlsxZip64Cells ? LXW_TRUE : LXW_FALSE;
  // libxlsxwriter opens the name itself when it writes the package: our temporary file, which
  // AtomicFile created exclusively and renames into place on Close().
  book->book_ = workbook_new_opt(book->file_.temp_path().c_str(), &options);
  if (book->book_ == nullptr) throw std::bad_alloc();  // its only failure is an allocation's
  XlsxCellStyle header;
  header.bold = header.centred = header.border = true;
  book->header_style_ = book->AddStyle(header);
  return book;
}

XlsxWorkbook::~XlsxWorkbook() {
  if (book_ != nullptr) lxw_workbook_free(book_);
}

Status XlsxWorkbook::Error(std::string_view what, int code) const {
  return Status::IOError(file_.path(), fmt::format("{}: {}", what, lxw_strerror(static_cast<lxw_error>(code))));
}

uint32_t XlsxWorkbook::AddStyle(const XlsxCellStyle& style) {
  lxw_format* f = workbook_add_format(book_);
  if (f == nullptr) throw std::bad_alloc();
  if (style.fill_rgb != 0) {
    format_set_pattern(f, LXW_PATTERN_SOLID);
    format_set_bg_color(f, style.fill_rgb);
  }
  if (style.font_rgb != 0) format_set_font_color(f, style.font_rgb);
  if (style.bold) format_set_bold(f);
  if (style.centred) format_set_align(f, LXW_ALIGN_CENTER);
  if (style.border) format_set_border(f, LXW_BORDER_THIN);
  if (style.hyperlink) {
    format_set_font_color(f, LXW_COLOR_BLUE);
    format_set_underline(f, LXW_UNDERLINE_SINGLE);
  }
  if (style.number_format != 0) format_set_num_format_index(f, style.number_format);
  formats_.push_back(f);
  return static_cast<uint32_t>(formats_.size() - 1);
}

Result<XlsxSheet*> XlsxWorkbook::AddSheet(const std::string& name) {
  const size_t chars = internal::Utf8Length(name);
  if (chars == 0 || chars > kMaxSheetName || name.find_first_of("[]:*?/\\") != std::string::npos ||
      name.front() == '\'' || name.back() == '\'') {
    return Status::InvalidInput(file_.path(), fmt::format("'{}' cannot name a sheet (1 to {} characters, none of "
                                                          "[]:*?/\\, no apostrophe at either end)", name, kMaxSheetName));
  }
  for (const std::unique_ptr<XlsxSheet>& sheet : sheets_) {
    if (AsciiLower(sheet->sheet_->name) == AsciiLower(name)) {
      return Status::InvalidInput(file_.path(), fmt::format("sheet name '{}' is used twice", name));
    }
  }
  lxw_worksheet* sheet = workbook_add_worksheet(book_, name.c_str());
  if (sheet == nullptr) return Status::InvalidInput(file_.path(), fmt::format("'{}' cannot name a sheet", name));
  sheets_.push_back(std::unique_ptr<XlsxSheet>(new XlsxSheet(this, sheet)));
  return sheets_.back().get();
}

Status XlsxWorkbook::Close() {
  lxw_workbook* book = book_;
  book_ = nullptr;  // workbook_close frees it, written or not
  const internal::XlsxPackageDeflate deflate_on_isal;
  const internal::XlsxCellText last_rows_by_fmt;  // constant_memory's last row is written here
  const lxw_error err = workbook_close(book);
  if (err != LXW_NO_ERROR) return Error("cannot write the workbook", err);
  return file_.Commit();
}

Status XlsxSheet::WriteHeader(const std::vector<std::string>& header, uint64_t filter_rows) {
  if (header.empty() || header.size() > kXlsxMaxColumns || filter_rows + 1 > kXlsxMaxRows) {
    return Status::InvalidInput(book_->file_.path(),
                                fmt::format("{} columns and {} rows do not fit in a sheet", header.size(), filter_rows));
  }
  XlsxRowBatch row;
  row.BeginRow(1);
  for (size_t c = 0; c < header.size(); ++c) row.Text(static_cast<uint32_t>(c), header[c], book_->header_style_);
  MSP_RETURN_IF_ERROR(Write(row));
  worksheet_freeze_panes(sheet_, 1, 0);
  return filter_rows > 0 ? AddAutofilter(header.size(), filter_rows) : Status::Ok();
}

Status XlsxSheet::AddAutofilter(size_t columns, uint64_t rows) {
  // libxlsxwriter keeps the range and writes it with the sheet, so it may follow the rows (in
  // constant_memory mode, as long as it ends at or after the last row written).
  const lxw_error err =
      worksheet_autofilter(sheet_, 0, 0, static_cast<lxw_row_t>(rows), static_cast<lxw_col_t>(columns - 1));
  return err == LXW_NO_ERROR ? Status::Ok() : book_->Error("cannot add the autofilter", err);
}

void XlsxSheet::SetWidths(const std::vector<double>& widths) {
  for (size_t c = 0; c < widths.size(); ++c) {
    if (widths[c] > 0) worksheet_set_column(sheet_, static_cast<lxw_col_t>(c), static_cast<lxw_col_t>(c), widths[c], nullptr);
  }
}

Status XlsxSheet::Write(const XlsxRowBatch& batch) {
  const internal::XlsxCellText cells_by_fmt;
  const std::vector<XlsxRowBatch::Row>& rows = batch.rows();
  const std::vector<XlsxRowBatch::Cell>& cells = batch.cells();
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto r = static_cast<lxw_row_t>(rows[i].row);
    // Before its cells: in constant_memory mode a row is final once another is touched.
    if (rows[i].style != 0) worksheet_set_row(sheet_, r, LXW_DEF_ROW_HEIGHT, book_->format(rows[i].style));
    const size_t end = i + 1 < rows.size() ? rows[i + 1].first_cell : cells.size();
    for (size_t k = rows[i].first_cell; k < end; ++k) {
      const XlsxRowBatch::Cell& cell = cells[k];
      const auto c = static_cast<lxw_col_t>(cell.column);
      lxw_format* f = book_->format(cell.style);
      lxw_error err = LXW_NO_ERROR;
      switch (cell.kind) {
        case XlsxRowBatch::Kind::kNumber: err = worksheet_write_number(sheet_, r, c, cell.number, f); break;
        case XlsxRowBatch::Kind::kText: err = worksheet_write_string(sheet_, r, c, batch.text(cell.text), f); break;
        case XlsxRowBatch::Kind::kBool: err = worksheet_write_boolean(sheet_, r, c, cell.number != 0, f); break;
        case XlsxRowBatch::Kind::kBlank: err = worksheet_write_blank(sheet_, r, c, f); break;
        case XlsxRowBatch::Kind::kLink:
          err = worksheet_write_url_opt(sheet_, r, c, batch.text(cell.link), f, batch.text(cell.text), nullptr);
          break;
      }
      if (err != LXW_NO_ERROR) return book_->Error(fmt::format("sheet '{}' row {}", sheet_->name, r + 1), err);
    }
  }
  return Status::Ok();
}

Status XlsxSheet::WriteRows(uint64_t rows, const XlsxRowsFormatter& format) {
  Status status;
  uint64_t next = 0;
  // Enough batches in flight to keep every core formatting while one thread writes.
  const size_t in_flight = 2 * static_cast<size_t>(tbb::this_task_arena::max_concurrency()) + 1;
  tbb::parallel_pipeline(
      in_flight,
      tbb::make_filter<void, std::shared_ptr<XlsxRowBatch>>(
          tbb::filter_mode::serial_in_order,
          [&](tbb::flow_control& fc) -> std::shared_ptr<XlsxRowBatch> {
            if (next >= rows || !status.ok()) {
              fc.stop();
              return nullptr;
            }
            const uint64_t first = next;
            next = std::min(rows, next + kRowsPerBatch);
            auto batch = std::make_shared<XlsxRowBatch>();
            batch->range = {first, next};
            return batch;
          }) &
          tbb::make_filter<std::shared_ptr<XlsxRowBatch>, std::shared_ptr<XlsxRowBatch>>(
              tbb::filter_mode::parallel,
              [&](std::shared_ptr<XlsxRowBatch> batch) {
                format(batch->range.first, batch->range.second, batch.get());
                return batch;
              }) &
          tbb::make_filter<std::shared_ptr<XlsxRowBatch>, void>(
              tbb::filter_mode::serial_in_order, [&](const std::shared_ptr<XlsxRowBatch>& batch) {
                if (status.ok()) status = Write(*batch);
              }));
  return status;
}

Status XlsxSheet::InsertChart(const XlsxChart& spec) {
  lxw_chart* chart = workbook_add_chart(book_->book_, LXW_CHART_SCATTER_STRAIGHT_WITH_MARKERS);
  if (chart == nullptr) throw std::bad_alloc();
  chart_title_set_name(chart, spec.title.c_str());
  chart_axis_set_name(chart->x_axis, spec.x_axis_title.c_str());
  chart_axis_set_name(chart->y_axis, spec.y_axis_title.c_str());
  if (spec.log_y) chart_axis_set_log_base(chart->y_axis, 10);
  chart_show_blanks_as(chart, LXW_CHART_BLANKS_AS_GAP);
  chart_legend_set_position(chart, LXW_CHART_LEGEND_BOTTOM);
  for (const XlsxChartSeries& s : spec.series) {
    lxw_chart_series* series = chart_add_series(chart, s.x_range.c_str(), s.y_range.c_str());
    if (series == nullptr) throw std::bad_alloc();
    chart_series_set_name(series, s.name.c_str());
    lxw_chart_line line{};
    line.color = s.rgb;
    line.width = static_cast<float>(kChartLineWidth);
    line.none = s.line ? LXW_FALSE : LXW_TRUE;
    chart_series_set_line(series, &line);
    chart_series_set_marker_type(series, LXW_CHART_MARKER_CIRCLE);
    chart_series_set_marker_size(series, s.marker_size);
    lxw_chart_fill fill{};
    fill.color = s.rgb;
    chart_series_set_marker_fill(series, &fill);
    lxw_chart_line border{};
    border.color = s.rgb;
    chart_series_set_marker_line(series, &border);
  }
  lxw_chart_options options{};
  options.x_scale = kChartScaleX;
  options.y_scale = kChartScaleY;
  const lxw_error err = worksheet_insert_chart_opt(sheet_, spec.row, static_cast<lxw_col_t>(spec.column), chart, &options);
  if (err != LXW_NO_ERROR) return book_->Error("cannot insert the chart", err);
  return Status::Ok();
}

}  // namespace msprobe::compare
