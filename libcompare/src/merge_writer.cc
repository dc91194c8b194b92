#include "msprobe/compare/merge_writer.h"

#include <fmt/format.h>
#include <xlsxwriter.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>

#include "msprobe/dump/atomic_file.h"
#include "xlsx_common_internal.h"

namespace msprobe::compare {
namespace {

constexpr size_t kExcelMaxSheetName = 31;
constexpr size_t kMinRanksForMedian = 3;
constexpr size_t kWidthSampleRows = 1000;
constexpr double kMaxNameWidth = 80;
constexpr double kMaxValueWidth = 40;
constexpr size_t kZip64Cells = 20'000'000;  // past this the sheet XML may exceed 4 GB
constexpr lxw_color_t kOutlierFill = 0xFFC7CE;
constexpr lxw_color_t kOutlierFont = 0x9C0006;

using internal::ExcelText;
using internal::Utf8Length;
using internal::WorkbookFree;

// The magnitude the highlight rule looks at, or nullopt for cells it ignores.
std::optional<double> Magnitude(const MergeValue& v) {
  double x = 0;
  switch (v.kind) {
    case MergeValue::Kind::kFloat: x = v.number; break;
    case MergeValue::Kind::kInt: x = static_cast<double>(v.integer); break;
    case MergeValue::Kind::kText: {
      std::string_view t = v.text;
      if (t.ends_with('%')) t.remove_suffix(1);
      if (t.starts_with('+')) t.remove_prefix(1);
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
      if (t.empty() || ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
      break;
    }
    case MergeValue::Kind::kMissing:
    case MergeValue::Kind::kBool: return std::nullopt;
  }
  if (!std::isfinite(x)) return std::nullopt;
  return std::fabs(x);
}

std::string SheetName(const std::string& index, size_t part, bool split) {
  if (!split) return index;
  const std::string suffix = "_part_" + std::to_string(part);
  std::string base = index;
  // Cut on a character boundary so base + suffix fits.
  while (Utf8Length(base) + suffix.size() > kExcelMaxSheetName) {
    do base.pop_back();
    while (!base.empty() && (base.back() & 0xC0) == 0x80);
    if (!base.empty() && (static_cast<unsigned char>(base.back()) & 0xC0) == 0xC0) base.pop_back();
  }
  return base + suffix;
}

struct Formats {
  lxw_format* header = nullptr;
  lxw_format* outlier = nullptr;
};

class SheetWriter {
 public:
  SheetWriter(const std::string& path, const MergeTable& table, double factor, const Formats& formats)
      : path_(path), table_(table), factor_(factor), formats_(formats), values_(table.rank_count()),
        magnitudes_(table.rank_count()) {}

  Status Write(lxw_workbook* wb, size_t index, const std::string& name, size_t first_row, size_t rows) {
    lxw_worksheet* ws = workbook_add_worksheet(wb, name.c_str());
    if (!ws) return Status::IOError(path_, fmt::format("cannot add sheet '{}'", name));
    MSP_RETURN_IF_ERROR(SetWidths(ws, index, first_row, rows));
    worksheet_freeze_panes(ws, 1, 0);
    MSP_RETURN_IF_ERROR(Check(worksheet_write_string(ws, 0, 0, "NPU Name", formats_.header)));
    for (size_t c = 0; c < table_.rank_count(); ++c) {
      const std::string title = "rank" + std::to_string(table_.rank(c));
      MSP_RETURN_IF_ERROR(Check(worksheet_write_string(ws, 0, static_cast<lxw_col_t>(c + 1), title.c_str(), formats_.header)));
    }
    std::string text;
    for (size_t i = 0; i < rows; ++i) {
      const size_t row = first_row + i;
      const auto xl_row = static_cast<lxw_row_t>(i + 1);
      text.assign(ExcelText(table_.row_name(row)));
      MSP_RETURN_IF_ERROR(Check(worksheet_write_string(ws, xl_row, 0, text.c_str(), nullptr)));
      const double median = RowMedian(index, row);
      for (size_t c = 0; c < table_.rank_count(); ++c) {
        lxw_format* format = nullptr;
        if (!std::isnan(median) && magnitudes_[c] && IsMergeOutlier(*magnitudes_[c], median, factor_)) {
          format = formats_.outlier;
        }
        MSP_RETURN_IF_ERROR(WriteValue(ws, xl_row, static_cast<lxw_col_t>(c + 1), values_[c], format, &text));
      }
    }
    return Status::Ok();
  }

 private:
  Status Check(lxw_error err) const { return err ? internal::XlsxStatus(path_, err) : Status::Ok(); }

  // Loads the row's values and magnitudes; the median of at least kMinRanksForMedian magnitudes, else NaN.
  double RowMedian(size_t index, size_t row) {
    sorted_.clear();
    for (size_t c = 0; c < table_.rank_count(); ++c) {
      values_[c] = table_.Value(index, row, c);
      magnitudes_[c] = Magnitude(values_[c]);
      if (magnitudes_[c]) sorted_.push_back(*magnitudes_[c]);
    }
    const size_t n = sorted_.size();
    if (n < kMinRanksForMedian) return std::nan("");
    std::nth_element(sorted_.begin(), sorted_.begin() + n / 2, sorted_.end());
    const double upper = sorted_[n / 2];
    if (n % 2) return upper;
    const double lower = *std::max_element(sorted_.begin(), sorted_.begin() + n / 2);
    return (lower + upper) / 2;
  }

  Status WriteValue(lxw_worksheet* ws, lxw_row_t row, lxw_col_t col, const MergeValue& v, lxw_format* format,
                    std::string* text) const {
    switch (v.kind) {
      case MergeValue::Kind::kMissing: return Status::Ok();
      case MergeValue::Kind::kInt: return Check(worksheet_write_number(ws, row, col, static_cast<double>(v.integer), format));
      case MergeValue::Kind::kBool: return Check(worksheet_write_boolean(ws, row, col, v.integer != 0, format));
      case MergeValue::Kind::kFloat:
        if (std::isnan(v.number)) return Status::Ok();  // pandas' na_rep ""
        if (std::isinf(v.number)) return Check(worksheet_write_string(ws, row, col, v.number > 0 ? "inf" : "-inf", format));
        return Check(worksheet_write_number(ws, row, col, v.number, format));
      case MergeValue::Kind::kText:
        if (v.text.empty()) return Status::Ok();
        text->assign(ExcelText(v.text));
        return Check(worksheet_write_string(ws, row, col, text->c_str(), format));
    }
    return Status::Ok();
  }

  Status SetWidths(lxw_worksheet* ws, size_t index, size_t first_row, size_t rows) {
    double name_width = Utf8Length("NPU Name");
    std::vector<double> widths(table_.rank_count());
    for (size_t c = 0; c < widths.size(); ++c) widths[c] = Utf8Length("rank" + std::to_string(table_.rank(c)));
    for (size_t i = 0; i < std::min(rows, kWidthSampleRows); ++i) {
      name_width = std::max<double>(name_width, Utf8Length(table_.row_name(first_row + i)));
      for (size_t c = 0; c < widths.size(); ++c) {
        const MergeValue v = table_.Value(index, first_row + i, c);
        const size_t len = v.kind == MergeValue::Kind::kText ? Utf8Length(v.text) : v.kind == MergeValue::Kind::kMissing ? 0 : 12;
        widths[c] = std::max<double>(widths[c], static_cast<double>(len));
      }
    }
    MSP_RETURN_IF_ERROR(Check(worksheet_set_column(ws, 0, 0, std::min(name_width + 2, kMaxNameWidth), nullptr)));
    for (size_t c = 0; c < widths.size(); ++c) {
      const auto col = static_cast<lxw_col_t>(c + 1);
      MSP_RETURN_IF_ERROR(Check(worksheet_set_column(ws, col, col, std::min(widths[c] + 2, kMaxValueWidth), nullptr)));
    }
    return Status::Ok();
  }

  const std::string& path_;
  const MergeTable& table_;
  double factor_;
  const Formats& formats_;
  std::vector<MergeValue> values_;
  std::vector<std::optional<double>> magnitudes_;
  std::vector<double> sorted_;
};

}  // namespace

bool IsMergeOutlier(double value, double median, double factor) {
  return value > factor * median || value * factor < median;
}

Status WriteMergeWorkbook(const std::string& path, const MergeTable& table, double highlight_factor,
                          size_t max_rows_per_sheet) {
  if (max_rows_per_sheet == 0 || max_rows_per_sheet >= LXW_ROW_MAX) {
    return Status::Internal(path, "xlsx sheet size must be between 1 and 1048575 rows");
  }
  if (table.rank_count() + 1 > LXW_COL_MAX) {
    return Status::InvalidInput(path, fmt::format("{} ranks do not fit in one sheet ({} columns at most)",
                                                  table.rank_count(), LXW_COL_MAX - 1));
  }
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  lxw_workbook_options options{};
  options.constant_memory = LXW_TRUE;  // rows go to temporary files as written
  options.use_zip64 = table.row_count() * (table.rank_count() + 1) > kZip64Cells ? LXW_TRUE : LXW_FALSE;
  std::unique_ptr<lxw_workbook, WorkbookFree> wb(workbook_new_opt(file.temp_path().c_str(), &options));
  if (!wb) return Status::IOError(path, "cannot create xlsx workbook");

  Formats formats;
  formats.header = workbook_add_format(wb.get());
  formats.outlier = workbook_add_format(wb.get());
  if (!formats.header || !formats.outlier) return internal::XlsxStatus(path, LXW_ERROR_MEMORY_MALLOC_FAILED);
  format_set_bold(formats.header);  // pandas' header style
  format_set_align(formats.header, LXW_ALIGN_CENTER);
  format_set_border(formats.header, LXW_BORDER_THIN);
  format_set_bg_color(formats.outlier, kOutlierFill);
  format_set_font_color(formats.outlier, kOutlierFont);

  SheetWriter writer(path, table, highlight_factor, formats);
  const size_t rows = table.row_count();
  for (size_t index = 0; index < table.indexes().size(); ++index) {
    const std::string& name = table.indexes()[index];
    if (rows < max_rows_per_sheet) {
      MSP_RETURN_IF_ERROR(writer.Write(wb.get(), index, SheetName(name, 0, false), 0, rows));
      continue;
    }
    // msprobe save_excel: ceil(n / max) slices of ceil(n / slices) rows.
    const size_t slices = (rows + max_rows_per_sheet - 1) / max_rows_per_sheet;
    const size_t slice_rows = (rows + slices - 1) / slices;
    for (size_t i = 0; i * slice_rows < rows; ++i) {
      MSP_RETURN_IF_ERROR(writer.Write(wb.get(), index, SheetName(name, i, true), i * slice_rows,
                                       std::min(slice_rows, rows - i * slice_rows)));
    }
  }
  if (const lxw_error err = workbook_close(wb.release())) return internal::XlsxStatus(path, err);
  return file.Commit();
}

}  // namespace msprobe::compare
