#include "msprobe/compare/xlsx/xlsx_stream_writer.h"

#include <fmt/format.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <memory>
#include <mutex>

#include "xlsx/xlsx_package_xml_internal.h"

namespace msprobe::compare {
namespace {

constexpr size_t kMaxSheetName = 31;
constexpr uint64_t kCellsPerChunk = 32 * 1024;  // about 1 MB of XML: pieces small enough to pipeline
constexpr int kSheetDeflateLevel = 1;           // most of the speed for a little size
constexpr int kPartDeflateLevel = 3;            // ISA-L's best; these parts are small

using internal::AppendXmlAttribute;
using internal::kMainNs;
using internal::kRelNs;
using internal::kXmlDeclaration;

size_t Utf8Chars(std::string_view s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

std::string FormatWidth(double w) {
  char digits[32];
  return std::string(digits, std::to_chars(digits, digits + sizeof digits, w).ptr);
}

uint32_t ColumnCount(const XlsxSheetLayout& layout) {
  return static_cast<uint32_t>(layout.header.empty() ? layout.widths.size() : layout.header.size());
}

// Everything before the data rows: dimension, the frozen header pane, widths, the header row.
std::string SheetPrologue(const XlsxSheetLayout& layout, bool first_sheet) {
  const uint32_t columns = ColumnCount(layout);
  const bool header = !layout.header.empty();
  std::string x = fmt::format("{}<worksheet xmlns=\"{}\" xmlns:r=\"{}\">", kXmlDeclaration, kMainNs, kRelNs);
  x += fmt::format("<dimension ref=\"A1:{}{}\"/>", XlsxColumnName(columns == 0 ? 0 : columns - 1),
                   std::max<uint64_t>(1, layout.rows + (header ? 1 : 0)));
  const char* selected = first_sheet ? "tabSelected=\"1\" " : "";
  if (header) {
    x += fmt::format("<sheetViews><sheetView {}workbookViewId=\"0\"><pane ySplit=\"1\" topLeftCell=\"A2\" "
                     "activePane=\"bottomLeft\" state=\"frozen\"/><selection pane=\"bottomLeft\"/></sheetView>"
                     "</sheetViews><sheetFormatPr defaultRowHeight=\"15\"/>", selected);
  } else {
    x += fmt::format("<sheetViews><sheetView {}workbookViewId=\"0\"/></sheetViews>"
                     "<sheetFormatPr defaultRowHeight=\"15\"/>", selected);
  }
  std::string cols;
  for (size_t c = 0; c < layout.widths.size() || c < layout.column_styles.size(); ++c) {
    const double width = c < layout.widths.size() ? layout.widths[c] : 0;
    const uint32_t style = c < layout.column_styles.size() ? layout.column_styles[c] : 0;
    if (width <= 0 && style == 0) continue;  // Excel's default column
    cols += fmt::format("<col min=\"{}\" max=\"{}\"", c + 1, c + 1);
    // A styled column without its own width keeps Excel's default one (8.43 characters).
    cols += fmt::format(" width=\"{}\"", FormatWidth(XlsxStreamWriter::StoredWidth(width > 0 ? width : 8.43)));
    if (style != 0) cols += fmt::format(" style=\"{}\"", style);
    cols += width > 0 ? " customWidth=\"1\"/>" : "/>";
  }
  if (!cols.empty()) x += "<cols>" + cols + "</cols>";
  x += "<sheetData>";
  if (header) {
    XlsxRowXml row(&x);
    row.BeginRow(1);
    for (uint32_t c = 0; c < columns; ++c) row.Text(c, layout.header[c], kXlsxStyleHeader);
    row.EndRow();
  }
  return x;
}

// Everything after the data rows, in CT_Worksheet's order: autofilter, hyperlinks, margins, drawing.
std::string SheetEpilogue(const XlsxSheetPlan& plan, const XlsxSheetLayout& layout) {
  std::string x = "</sheetData>";
  if (plan.filter_columns > 0) {
    x += fmt::format("<autoFilter ref=\"A1:{}{}\"/>", XlsxColumnName(plan.filter_columns - 1), plan.filter_rows + 1);
  }
  if (!layout.hyperlinks.empty()) {
    x += "<hyperlinks>";
    for (const XlsxHyperlink& link : layout.hyperlinks) {
      x += "<hyperlink ref=\"";
      AppendXmlAttribute(link.cell, &x);
      x += "\" location=\"";
      AppendXmlAttribute(link.location, &x);
      x += "\" display=\"";
      AppendXmlAttribute(link.display, &x);
      x += "\"/>";
    }
    x += "</hyperlinks>";
  }
  x += "<pageMargins left=\"0.7\" right=\"0.7\" top=\"0.75\" bottom=\"0.75\" header=\"0.3\" footer=\"0.3\"/>";
  if (layout.chart) x += "<drawing r:id=\"rId1\"/>";
  return x + "</worksheet>";
}

// One piece of a sheet on its way through the pipeline.
struct SheetChunk {
  uint64_t index = 0;
  DeflatedChunk deflated;
};

// Per worker: its deflate state and XML buffer, reused from chunk to chunk.
struct ChunkWorker {
  ChunkDeflater deflater{kSheetDeflateLevel};
  std::string xml;
};

}  // namespace

uint64_t XlsxSheetXmlBound(uint64_t rows, uint64_t columns, const std::function<uint64_t()>& text_bytes) {
  // A cell's markup without its text: <c r="XFD1048576" s="12" t="inlineStr"><is><t xml:space="preserve">
  // </t></is></c> is 80 bytes, a number cell less; a row's: <row r="1048576" s="12" customFormat="1">
  // </row>; a column's <col> in <cols>; the rest of the sheet (views, filter, links, drawing). A text
  // byte becomes at most 7 once escaped ("_x001F_").
  constexpr uint64_t kCellMarkupBound = 96, kRowMarkupBound = 64, kColMarkupBound = 128;
  constexpr uint64_t kSheetMarkupBound = 8192, kTextGrowthBound = 7;
  const uint64_t markup =
      rows * (columns * kCellMarkupBound + kRowMarkupBound) + columns * kColMarkupBound + kSheetMarkupBound;
  if (markup >= kZipMax32) return markup;  // ZIP64 anyway; no need to count the texts
  return markup + kTextGrowthBound * text_bytes();
}

double XlsxStreamWriter::StoredWidth(double characters) {
  constexpr double kDigit = 7, kPadding = 5;
  if (characters <= 0) return 0;
  if (characters < 1) return static_cast<uint16_t>(static_cast<uint16_t>(characters * (kDigit + kPadding) + 0.5) / kDigit * 256.0) / 256.0;
  return static_cast<uint16_t>((static_cast<uint16_t>(characters * kDigit + 0.5) + kPadding) / kDigit * 256.0) / 256.0;
}

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
  const std::string col = XlsxColumnName(column);
  return fmt::format("{}!${}${}:${}${}", XlsxSheetRef(sheet), col, first_row, col, last_row);
}

Status XlsxStreamWriter::Begin(const std::vector<std::string>& sheet_names) {
  std::vector<XlsxSheetPlan> plans;
  for (const std::string& name : sheet_names) {
    XlsxSheetPlan plan;
    plan.name = name;
    plans.push_back(std::move(plan));
  }
  return Begin(plans, {});
}

Status XlsxStreamWriter::Begin(const std::vector<XlsxSheetPlan>& sheets, const std::vector<XlsxCellStyle>& styles) {
  for (size_t i = 0; i < sheets.size(); ++i) {
    const std::string& name = sheets[i].name;
    const size_t chars = Utf8Chars(name);
    if (chars == 0 || chars > kMaxSheetName || name.find_first_of("[]:*?/\\") != std::string::npos ||
        name.front() == '\'' || name.back() == '\'') {
      return Status::InvalidInput(source_, fmt::format("'{}' cannot name a sheet (1 to {} characters, none of "
                                                       "[]:*?/\\, no apostrophe at either end)", name, kMaxSheetName));
    }
    for (size_t j = 0; j < i; ++j) {
      if (AsciiLower(sheets[j].name) == AsciiLower(name)) {
        return Status::InvalidInput(source_, fmt::format("sheet name '{}' is used twice", name));
      }
    }
    if (sheets[i].filter_columns > kXlsxMaxColumns || sheets[i].filter_rows + 1 > kXlsxMaxRows) {
      return Status::InvalidInput(source_, fmt::format("sheet '{}': the autofilter passes Excel's grid", name));
    }
  }
  sheets_ = sheets;
  MSP_RETURN_IF_ERROR(zip_.AddDeflated("[Content_Types].xml", internal::XlsxContentTypes(sheets), kPartDeflateLevel));
  MSP_RETURN_IF_ERROR(zip_.AddDeflated("_rels/.rels", internal::XlsxRootRels(), kPartDeflateLevel));
  MSP_RETURN_IF_ERROR(zip_.AddDeflated("xl/workbook.xml", internal::XlsxWorkbook(sheets), kPartDeflateLevel));
  MSP_RETURN_IF_ERROR(
      zip_.AddDeflated("xl/_rels/workbook.xml.rels", internal::XlsxWorkbookRels(sheets.size()), kPartDeflateLevel));
  return zip_.AddDeflated("xl/styles.xml", internal::XlsxStyles(styles), kPartDeflateLevel);
}

Status XlsxStreamWriter::WriteChartParts(const XlsxLineChart& chart) {
  const size_t k = ++charts_written_;
  MSP_RETURN_IF_ERROR(zip_.AddDeflated(fmt::format("xl/worksheets/_rels/sheet{}.xml.rels", sheets_written_),
                                       internal::XlsxSheetDrawingRels(k), kPartDeflateLevel));
  MSP_RETURN_IF_ERROR(
      zip_.AddDeflated(fmt::format("xl/drawings/drawing{}.xml", k), internal::XlsxDrawing(chart), kPartDeflateLevel));
  MSP_RETURN_IF_ERROR(zip_.AddDeflated(fmt::format("xl/drawings/_rels/drawing{}.xml.rels", k),
                                       internal::XlsxDrawingRels(k), kPartDeflateLevel));
  return zip_.AddDeflated(fmt::format("xl/charts/chart{}.xml", k), internal::XlsxChart(chart), kPartDeflateLevel);
}

Status XlsxStreamWriter::WriteSheet(const XlsxSheetLayout& layout, const XlsxRowsFormatter& format_rows) {
  if (sheets_written_ >= sheets_.size() || layout.name != sheets_[sheets_written_].name) {
    return Status::Internal(source_, fmt::format("sheet '{}' was not announced in this place", layout.name));
  }
  const XlsxSheetPlan& plan = sheets_[sheets_written_];
  if (plan.chart != layout.chart.has_value()) {
    return Status::Internal(source_, fmt::format("sheet '{}': its chart was not planned so", layout.name));
  }
  const uint32_t columns = ColumnCount(layout);
  const uint64_t header_rows = layout.header.empty() ? 0 : 1;
  if (layout.rows + header_rows > kXlsxMaxRows || columns == 0 || columns > kXlsxMaxColumns) {
    return Status::InvalidInput(source_, fmt::format("sheet '{}': {} rows × {} columns do not fit Excel's {} × {}",
                                                     layout.name, layout.rows + header_rows, columns, kXlsxMaxRows,
                                                     kXlsxMaxColumns));
  }
  const bool first_sheet = sheets_written_ == 0;
  ++sheets_written_;
  MSP_RETURN_IF_ERROR(zip_.BeginStreamed(fmt::format("xl/worksheets/sheet{}.xml", sheets_written_),
                                         layout.xml_bytes_bound >= kZipMax32));

  const uint64_t rows_per_chunk = std::max<uint64_t>(1, kCellsPerChunk / columns);
  const std::string epilogue = SheetEpilogue(plan, layout);
  const uint64_t chunks = std::max<uint64_t>(1, (layout.rows + rows_per_chunk - 1) / rows_per_chunk);
  tbb::enumerable_thread_specific<std::unique_ptr<ChunkWorker>> workers;
  std::mutex error_mutex;
  Status error = Status::Ok();
  std::atomic<bool> failed{false};
  auto fail = [&](Status s) {
    std::lock_guard<std::mutex> lock(error_mutex);
    if (error.ok()) error = std::move(s);
    failed = true;
  };

  uint64_t next = 0;
  const size_t tokens = 2 * static_cast<size_t>(std::max(1, tbb::this_task_arena::max_concurrency())) + 2;
  tbb::parallel_pipeline(
      tokens,
      tbb::make_filter<void, uint64_t>(tbb::filter_mode::serial_in_order,
                                       [&](tbb::flow_control& fc) -> uint64_t {
                                         if (next == chunks || failed) fc.stop();
                                         return next++;
                                       }) &
          tbb::make_filter<uint64_t, std::shared_ptr<SheetChunk>>(
              tbb::filter_mode::parallel,
              [&](uint64_t k) {
                auto chunk = std::make_shared<SheetChunk>();
                chunk->index = k;
                if (failed) return chunk;
                std::unique_ptr<ChunkWorker>& worker = workers.local();
                if (!worker) worker = std::make_unique<ChunkWorker>();
                std::string& xml = worker->xml;
                xml.clear();
                if (k == 0) xml = SheetPrologue(layout, first_sheet);
                const uint64_t first = k * rows_per_chunk;
                const uint64_t end = std::min(layout.rows, first + rows_per_chunk);
                if (first < end) {
                  XlsxRowXml rows(&xml);
                  format_rows(first, end, &rows);
                }
                const bool last = k + 1 == chunks;
                if (last) xml.append(epilogue);
                if (Status s = worker->deflater.Deflate(xml, last, &chunk->deflated); !s.ok()) fail(std::move(s));
                return chunk;
              }) &
          tbb::make_filter<std::shared_ptr<SheetChunk>, void>(tbb::filter_mode::serial_in_order,
                                                              [&](std::shared_ptr<SheetChunk> chunk) {
                                                                if (failed) return;
                                                                if (Status s = zip_.AppendStreamed(chunk->deflated);
                                                                    !s.ok()) {
                                                                  fail(std::move(s));
                                                                }
                                                              }));
  if (!error.ok()) return error;
  MSP_RETURN_IF_ERROR(zip_.EndStreamed());
  return layout.chart ? WriteChartParts(*layout.chart) : Status::Ok();
}

Status XlsxStreamWriter::Finish() {
  if (sheets_written_ != sheets_.size()) {
    return Status::Internal(source_, fmt::format("{} of {} sheets were written", sheets_written_, sheets_.size()));
  }
  return zip_.Finish();
}

}  // namespace msprobe::compare
