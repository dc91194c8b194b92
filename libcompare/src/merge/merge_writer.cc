#include "msprobe/compare/merge/merge_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "msprobe/compare/xlsx/xlsx_workbook.h"
#include "xlsx/xlsx_common_internal.h"

namespace msprobe::compare {
namespace {

constexpr size_t kExcelMaxSheetName = 31;
constexpr size_t kMinRanksForMedian = 3;
constexpr size_t kWidthSampleRows = 1000;
constexpr double kMaxNameWidth = 80;
constexpr double kMaxValueWidth = 40;
using internal::ExcelText;
using internal::Utf8Length;

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

// One sheet: index `index` of the table, rows [first_row, first_row + rows).
struct SheetSlice {
  std::string name;
  size_t index = 0;
  size_t first_row = 0;
  size_t rows = 0;
};

// msprobe save_excel: a sheet that would reach `max_rows` rows becomes ceil(n / max) slices of
// ceil(n / slices) rows.
std::vector<SheetSlice> PlanSheets(const MergeTable& table, size_t max_rows) {
  std::vector<SheetSlice> sheets;
  const size_t rows = table.row_count();
  for (size_t index = 0; index < table.indexes().size(); ++index) {
    const std::string& name = table.indexes()[index];
    if (rows < max_rows) {
      sheets.push_back({SheetName(name, 0, false), index, 0, rows});
      continue;
    }
    const size_t slices = (rows + max_rows - 1) / max_rows;
    const size_t slice_rows = (rows + slices - 1) / slices;
    for (size_t i = 0; i * slice_rows < rows; ++i) {
      sheets.push_back({SheetName(name, i, true), index, i * slice_rows, std::min(slice_rows, rows - i * slice_rows)});
    }
  }
  return sheets;
}

// Formats the rows of one sheet; const, so chunks of it run in parallel.
class MergeSheetRows {
 public:
  MergeSheetRows(const MergeTable& table, double factor, const SheetSlice& slice, uint32_t outlier_style)
      : table_(table), factor_(factor), slice_(slice), outlier_style_(outlier_style) {}

  void Format(uint64_t first, uint64_t end, XlsxRowBatch* batch) const {
    const size_t ranks = table_.rank_count();
    std::vector<MergeValue> values(ranks);
    std::vector<std::optional<double>> magnitudes(ranks);
    std::vector<double> sorted;
    sorted.reserve(ranks);
    for (uint64_t i = first; i < end; ++i) {
      const size_t row = slice_.first_row + i;
      batch->BeginRow(i + 2);
      batch->Text(0, ExcelText(table_.row_name(row)));
      const double median = RowMedian(row, &values, &magnitudes, &sorted);
      for (size_t c = 0; c < ranks; ++c) {
        const bool outlier = !std::isnan(median) && magnitudes[c] && IsMergeOutlier(*magnitudes[c], median, factor_);
        WriteValue(static_cast<uint32_t>(c + 1), values[c], outlier ? outlier_style_ : 0, batch);
      }
    }
  }

  std::vector<std::string> Header() const {
    std::vector<std::string> header{"NPU Name"};
    for (size_t c = 0; c < table_.rank_count(); ++c) header.push_back("rank" + std::to_string(table_.rank(c)));
    return header;
  }

  // Each column's widest of its header and its first rows' values.
  std::vector<double> Widths() const {
    const std::vector<std::string> header = Header();
    double name_width = Utf8Length(header[0]);
    std::vector<double> widths(table_.rank_count());
    for (size_t c = 0; c < widths.size(); ++c) widths[c] = Utf8Length(header[c + 1]);
    for (size_t i = 0; i < std::min(slice_.rows, kWidthSampleRows); ++i) {
      name_width = std::max<double>(name_width, Utf8Length(table_.row_name(slice_.first_row + i)));
      for (size_t c = 0; c < widths.size(); ++c) {
        const MergeValue v = table_.Value(slice_.index, slice_.first_row + i, c);
        const size_t len = v.kind == MergeValue::Kind::kText ? Utf8Length(v.text) : v.kind == MergeValue::Kind::kMissing ? 0 : 12;
        widths[c] = std::max<double>(widths[c], static_cast<double>(len));
      }
    }
    std::vector<double> out{std::min(name_width + 2, kMaxNameWidth)};
    for (double w : widths) out.push_back(std::min(w + 2, kMaxValueWidth));
    return out;
  }

 private:
  // Loads the row's values and magnitudes; the median of at least kMinRanksForMedian magnitudes, else NaN.
  double RowMedian(size_t row, std::vector<MergeValue>* values, std::vector<std::optional<double>>* magnitudes,
                   std::vector<double>* sorted) const {
    sorted->clear();
    for (size_t c = 0; c < table_.rank_count(); ++c) {
      (*values)[c] = table_.Value(slice_.index, row, c);
      (*magnitudes)[c] = Magnitude((*values)[c]);
      if ((*magnitudes)[c]) sorted->push_back(*(*magnitudes)[c]);
    }
    const size_t n = sorted->size();
    if (n < kMinRanksForMedian) return std::nan("");
    std::nth_element(sorted->begin(), sorted->begin() + n / 2, sorted->end());
    const double upper = (*sorted)[n / 2];
    if (n % 2) return upper;
    const double lower = *std::max_element(sorted->begin(), sorted->begin() + n / 2);
    return (lower + upper) / 2;
  }

  // Typed as msprobe writes them: ±inf as texts, NaN and missing values as no cell.
  static void WriteValue(uint32_t col, const MergeValue& v, uint32_t style, XlsxRowBatch* batch) {
    switch (v.kind) {
      case MergeValue::Kind::kMissing: return;
      case MergeValue::Kind::kInt: return batch->Number(col, static_cast<double>(v.integer), style);
      case MergeValue::Kind::kBool: return batch->Bool(col, v.integer != 0, style);
      case MergeValue::Kind::kFloat:
        if (std::isnan(v.number)) return;  // pandas' na_rep ""
        if (std::isinf(v.number)) return batch->Text(col, v.number > 0 ? "inf" : "-inf", style);
        return batch->Number(col, v.number, style);
      case MergeValue::Kind::kText:
        if (v.text.empty()) return;
        return batch->Text(col, ExcelText(v.text), style);
    }
  }

  const MergeTable& table_;
  double factor_;
  const SheetSlice& slice_;
  uint32_t outlier_style_;
};

}  // namespace

bool IsMergeOutlier(double value, double median, double factor) {
  return value > factor * median || value * factor < median;
}

Status WriteMergeWorkbook(const std::string& path, const MergeTable& table, double highlight_factor,
                          size_t max_rows_per_sheet) {
  if (max_rows_per_sheet == 0 || max_rows_per_sheet >= kXlsxMaxRows) {
    return Status::Internal(path, "xlsx sheet size must be between 1 and 1048575 rows");
  }
  if (table.rank_count() + 1 > kXlsxMaxColumns) {
    return Status::InvalidInput(path, fmt::format("{} ranks do not fit in one sheet ({} columns at most)",
                                                  table.rank_count(), kXlsxMaxColumns - 1));
  }
  const std::vector<SheetSlice> sheets = PlanSheets(table, max_rows_per_sheet);
  MSP_ASSIGN_OR_RETURN(std::unique_ptr<XlsxWorkbook> book,
                       XlsxWorkbook::Create(path, (table.row_count() + 1) * (table.rank_count() + 1) * sheets.size()));
  XlsxCellStyle outlier;  // Excel's "Light Red Fill with Dark Red Text"
  outlier.fill_rgb = 0xFFC7CE;
  outlier.font_rgb = 0x9C0006;
  const uint32_t outlier_style = book->AddStyle(outlier);
  for (const SheetSlice& slice : sheets) {
    const MergeSheetRows rows(table, highlight_factor, slice, outlier_style);
    MSP_ASSIGN_OR_RETURN(XlsxSheet * sheet, book->AddSheet(slice.name));
    sheet->SetWidths(rows.Widths());
    MSP_RETURN_IF_ERROR(sheet->WriteHeader(rows.Header(), 0));
    MSP_RETURN_IF_ERROR(sheet->WriteRows(slice.rows, [&rows](uint64_t first, uint64_t end, XlsxRowBatch* batch) {
      rows.Format(first, end, batch);
    }));
  }
  return book->Close();
}

}  // namespace msprobe::compare
