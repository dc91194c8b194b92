#include "msprobe/compare/xlsx_stream_writer.h"

#include <fmt/format.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <memory>
#include <mutex>

namespace msprobe::compare {
namespace {

constexpr std::string_view kXmlDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";
constexpr std::string_view kMainNs = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
constexpr std::string_view kRelNs = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
constexpr std::string_view kPackageRelNs = "http://schemas.openxmlformats.org/package/2006/relationships";
constexpr size_t kMaxSheetName = 31;
constexpr uint64_t kCellsPerChunk = 32 * 1024;  // about 1 MB of XML: pieces small enough to pipeline
constexpr int kSheetDeflateLevel = 1;           // most of the speed for a little size
constexpr int kPartDeflateLevel = 6;

// The fonts, fills and borders behind the three cell styles (0 default, 1 header, 2 outlier).
constexpr std::string_view kStyles =
    "<styleSheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
    "<fonts count=\"3\">"
    "<font><sz val=\"11\"/><color rgb=\"FF000000\"/><name val=\"Calibri\"/><family val=\"2\"/></font>"
    "<font><b/><sz val=\"11\"/><color rgb=\"FF000000\"/><name val=\"Calibri\"/><family val=\"2\"/></font>"
    "<font><sz val=\"11\"/><color rgb=\"FF9C0006\"/><name val=\"Calibri\"/><family val=\"2\"/></font>"
    "</fonts>"
    "<fills count=\"3\">"
    "<fill><patternFill patternType=\"none\"/></fill>"
    "<fill><patternFill patternType=\"gray125\"/></fill>"
    "<fill><patternFill patternType=\"solid\"><fgColor rgb=\"FFFFC7CE\"/><bgColor indexed=\"64\"/></patternFill></fill>"
    "</fills>"
    "<borders count=\"2\">"
    "<border><left/><right/><top/><bottom/><diagonal/></border>"
    "<border><left style=\"thin\"><color auto=\"1\"/></left><right style=\"thin\"><color auto=\"1\"/></right>"
    "<top style=\"thin\"><color auto=\"1\"/></top><bottom style=\"thin\"><color auto=\"1\"/></bottom><diagonal/></border>"
    "</borders>"
    "<cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\"/></cellStyleXfs>"
    "<cellXfs count=\"3\">"
    "<xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\"/>"
    "<xf numFmtId=\"0\" fontId=\"1\" fillId=\"0\" borderId=\"1\" xfId=\"0\" applyFont=\"1\" applyBorder=\"1\" "
    "applyAlignment=\"1\"><alignment horizontal=\"center\"/></xf>"
    "<xf numFmtId=\"0\" fontId=\"2\" fillId=\"2\" borderId=\"0\" xfId=\"0\" applyFont=\"1\" applyFill=\"1\"/>"
    "</cellXfs>"
    "<cellStyles count=\"1\"><cellStyle name=\"Normal\" xfId=\"0\" builtinId=\"0\"/></cellStyles>"
    "<dxfs count=\"0\"/><tableStyles count=\"0\" defaultTableStyle=\"TableStyleMedium9\" "
    "defaultPivotStyle=\"PivotStyleLight16\"/>"
    "</styleSheet>";

std::string ContentTypes(size_t sheets) {
  std::string x(kXmlDeclaration);
  x += "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
       "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
       "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
       "<Override PartName=\"/xl/workbook.xml\" "
       "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
       "<Override PartName=\"/xl/styles.xml\" "
       "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml\"/>";
  for (size_t i = 1; i <= sheets; ++i) {
    x += fmt::format("<Override PartName=\"/xl/worksheets/sheet{}.xml\" "
                     "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>", i);
  }
  return x + "</Types>";
}

std::string RootRels() {
  return fmt::format("{}<Relationships xmlns=\"{}\"><Relationship Id=\"rId1\" Type=\"{}/officeDocument\" "
                     "Target=\"xl/workbook.xml\"/></Relationships>", kXmlDeclaration, kPackageRelNs, kRelNs);
}

std::string Workbook(const std::vector<std::string>& names) {
  std::string x = fmt::format("{}<workbook xmlns=\"{}\" xmlns:r=\"{}\"><bookViews><workbookView/></bookViews><sheets>",
                              kXmlDeclaration, kMainNs, kRelNs);
  for (size_t i = 0; i < names.size(); ++i) {
    x += "<sheet name=\"";
    AppendXmlEscaped(names[i], true, &x);
    x += fmt::format("\" sheetId=\"{}\" r:id=\"rId{}\"/>", i + 1, i + 1);
  }
  return x + "</sheets></workbook>";
}

std::string WorkbookRels(size_t sheets) {
  std::string x = fmt::format("{}<Relationships xmlns=\"{}\">", kXmlDeclaration, kPackageRelNs);
  for (size_t i = 1; i <= sheets; ++i) {
    x += fmt::format("<Relationship Id=\"rId{}\" Type=\"{}/worksheet\" Target=\"worksheets/sheet{}.xml\"/>", i, kRelNs, i);
  }
  return x + fmt::format("<Relationship Id=\"rId{}\" Type=\"{}/styles\" Target=\"styles.xml\"/></Relationships>",
                         sheets + 1, kRelNs);
}

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

// Everything before the data rows: dimension, the frozen header pane, widths, the header row.
std::string SheetPrologue(const XlsxSheetLayout& layout, bool first_sheet) {
  const auto columns = static_cast<uint32_t>(layout.header.size());
  std::string x = fmt::format("{}<worksheet xmlns=\"{}\" xmlns:r=\"{}\">", kXmlDeclaration, kMainNs, kRelNs);
  x += fmt::format("<dimension ref=\"A1:{}{}\"/>", XlsxColumnName(columns == 0 ? 0 : columns - 1), layout.rows + 1);
  x += fmt::format("<sheetViews><sheetView {}workbookViewId=\"0\"><pane ySplit=\"1\" topLeftCell=\"A2\" "
                   "activePane=\"bottomLeft\" state=\"frozen\"/><selection pane=\"bottomLeft\"/></sheetView>"
                   "</sheetViews><sheetFormatPr defaultRowHeight=\"15\"/>",
                   first_sheet ? "tabSelected=\"1\" " : "");
  if (!layout.widths.empty()) {
    x += "<cols>";
    for (size_t c = 0; c < layout.widths.size(); ++c) {
      x += fmt::format("<col min=\"{}\" max=\"{}\" width=\"{}\" customWidth=\"1\"/>", c + 1, c + 1,
                       FormatWidth(XlsxStreamWriter::StoredWidth(layout.widths[c])));
    }
    x += "</cols>";
  }
  x += "<sheetData>";
  XlsxRowXml row(&x);
  row.BeginRow(1);
  for (uint32_t c = 0; c < columns; ++c) row.Text(c, layout.header[c], kXlsxStyleHeader);
  row.EndRow();
  return x;
}

constexpr std::string_view kSheetEpilogue =
    "</sheetData><pageMargins left=\"0.7\" right=\"0.7\" top=\"0.75\" bottom=\"0.75\" header=\"0.3\" "
    "footer=\"0.3\"/></worksheet>";

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

double XlsxStreamWriter::StoredWidth(double characters) {
  constexpr double kDigit = 7, kPadding = 5;
  if (characters <= 0) return 0;
  if (characters < 1) return static_cast<uint16_t>(static_cast<uint16_t>(characters * (kDigit + kPadding) + 0.5) / kDigit * 256.0) / 256.0;
  return static_cast<uint16_t>((static_cast<uint16_t>(characters * kDigit + 0.5) + kPadding) / kDigit * 256.0) / 256.0;
}

Status XlsxStreamWriter::Begin(const std::vector<std::string>& sheet_names) {
  for (size_t i = 0; i < sheet_names.size(); ++i) {
    const std::string& name = sheet_names[i];
    const size_t chars = Utf8Chars(name);
    if (chars == 0 || chars > kMaxSheetName || name.find_first_of("[]:*?/\\") != std::string::npos ||
        name.front() == '\'' || name.back() == '\'') {
      return Status::InvalidInput(source_, fmt::format("'{}' cannot name a sheet (1 to {} characters, none of "
                                                       "[]:*?/\\, no apostrophe at either end)", name, kMaxSheetName));
    }
    for (size_t j = 0; j < i; ++j) {
      if (AsciiLower(sheet_names[j]) == AsciiLower(name)) {
        return Status::InvalidInput(source_, fmt::format("sheet name '{}' is used twice", name));
      }
    }
  }
  sheet_names_ = sheet_names;
  MSP_RETURN_IF_ERROR(zip_.AddDeflated("[Content_Types].xml", ContentTypes(sheet_names.size()), kPartDeflateLevel));
  MSP_RETURN_IF_ERROR(zip_.AddDeflated("_rels/.rels", RootRels(), kPartDeflateLevel));
  MSP_RETURN_IF_ERROR(zip_.AddDeflated("xl/workbook.xml", Workbook(sheet_names), kPartDeflateLevel));
  MSP_RETURN_IF_ERROR(zip_.AddDeflated("xl/_rels/workbook.xml.rels", WorkbookRels(sheet_names.size()), kPartDeflateLevel));
  return zip_.AddDeflated("xl/styles.xml", std::string(kXmlDeclaration) + std::string(kStyles), kPartDeflateLevel);
}

Status XlsxStreamWriter::WriteSheet(const XlsxSheetLayout& layout, const XlsxRowsFormatter& format_rows) {
  if (sheets_written_ >= sheet_names_.size() || layout.name != sheet_names_[sheets_written_]) {
    return Status::Internal(source_, fmt::format("sheet '{}' was not announced in this place", layout.name));
  }
  if (layout.rows + 1 > kXlsxMaxRows || layout.header.empty() || layout.header.size() > kXlsxMaxColumns) {
    return Status::InvalidInput(source_, fmt::format("sheet '{}': {} rows × {} columns do not fit Excel's {} × {}",
                                                     layout.name, layout.rows + 1, layout.header.size(), kXlsxMaxRows,
                                                     kXlsxMaxColumns));
  }
  const bool first_sheet = sheets_written_ == 0;
  ++sheets_written_;
  MSP_RETURN_IF_ERROR(zip_.BeginStreamed(fmt::format("xl/worksheets/sheet{}.xml", sheets_written_),
                                         layout.xml_bytes_bound >= kZipMax32));

  const uint64_t rows_per_chunk = std::max<uint64_t>(1, kCellsPerChunk / layout.header.size());
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
                if (last) xml.append(kSheetEpilogue);
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
  return zip_.EndStreamed();
}

Status XlsxStreamWriter::Finish() {
  if (sheets_written_ != sheet_names_.size()) {
    return Status::Internal(source_, fmt::format("{} of {} sheets were written", sheets_written_, sheet_names_.size()));
  }
  return zip_.Finish();
}

}  // namespace msprobe::compare
