// The workbook layer over libxlsxwriter (xlsx_workbook.h): rows formatted in parallel arrive in
// order, texts reach Excel as written, the sheet features the compare and merge workbooks use are
// in the package, and a failed workbook leaves nothing behind. How LibreOffice reads and draws the
// workbooks is checked by tests/cli/libreoffice_*_test.sh.
#include "msprobe/compare/xlsx/xlsx_workbook.h"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <isa-l/igzip_lib.h>
#include <minizip/unzip.h>
#include <tbb/task_arena.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "msprobe/compare/xlsx/xlsx_reader.h"
#include "msprobe/dump/formats/zip_archive.h"
#include "test_support.h"
#include "xlsx/xlsx_package_deflate_internal.h"

namespace msprobe::compare {
namespace {

using msprobe::testing::ReadFile;
using msprobe::testing::TempDir;
using Type = XlsxCell::Type;

// "r" and the row index (appended: GCC 12 flags "r" + std::to_string(i) with a false -Wrestrict).
std::string RowName(uint64_t i) {
  std::string name = "r";
  name += std::to_string(i);
  return name;
}

// A workbook: "data" (2 columns, 3 rows, autofiltered, one red row) and "my plot" (no header, a
// link to data!A3 and a chart of B1:B3 over A1:A3).
std::string FeatureWorkbook(const TempDir& dir) {
  const std::string path = dir.Path("f.xlsx");
  auto book = XlsxWorkbook::Create(path, 100);
  EXPECT_TRUE(book.ok()) << book.status().ToString();
  XlsxCellStyle red;
  red.fill_rgb = 0xFF0000;
  const uint32_t red_style = (*book)->AddStyle(red);
  auto data = (*book)->AddSheet("data");
  EXPECT_TRUE(data.ok());
  (*data)->SetWidths({10, 8});
  EXPECT_TRUE((*data)->WriteHeader({"name", "value"}, 3).ok());
  EXPECT_TRUE((*data)->WriteRows(3, [&](uint64_t first, uint64_t end, XlsxRowBatch* batch) {
    for (uint64_t i = first; i < end; ++i) {
      const uint32_t style = i == 1 ? red_style : 0;
      batch->BeginRow(i + 2, style);
      batch->Text(0, RowName(i), style);
      if (i == 1) {
        batch->Blank(1, style);
      } else {
        batch->Number(1, static_cast<double>(i) / 4, style);
      }
    }
  }).ok());
  auto plot = (*book)->AddSheet("my plot");
  EXPECT_TRUE(plot.ok());
  EXPECT_TRUE((*plot)->WriteRows(3, [](uint64_t first, uint64_t end, XlsxRowBatch* batch) {
    for (uint64_t i = first; i < end; ++i) {
      batch->BeginRow(i + 1);
      if (i == 0) {
        batch->Link(0, "r1 & <more>", "'data'!A3");
      } else {
        batch->Number(0, static_cast<double>(i));
      }
      if (i != 1) batch->Number(1, static_cast<double>(i + 1) / 100);  // B2 blank: a gap
    }
  }).ok());
  XlsxChart chart;
  chart.title = "value along the rows";
  chart.x_axis_title = "row";
  chart.y_axis_title = "value";
  chart.log_y = true;
  chart.series.push_back({"value", XlsxRangeRef("my plot", 0, 1, 3), XlsxRangeRef("my plot", 1, 1, 3), 0x4472C4, true, 3});
  chart.series.push_back({"marked", XlsxRangeRef("my plot", 0, 1, 3), XlsxRangeRef("my plot", 1, 1, 3), 0xFF0000, false, 6});
  chart.column = 3;
  chart.row = 1;
  EXPECT_TRUE((*plot)->InsertChart(chart).ok());
  EXPECT_TRUE((*book)->Close().ok());
  return ReadFile(path);
}

std::string Member(const std::string& file, const std::string& name) {
  auto archive = ZipArchive::Open(AsBytes(file), "f.xlsx");
  if (!archive.ok()) return "no archive: " + archive.status().ToString();
  const ZipEntry* entry = archive->Find(name);
  if (!entry) return "no member " + name;
  auto text = archive->ReadMember(*entry, 1 << 20);
  return text.ok() ? *text : text.status().ToString();
}

bool Has(const std::string& xml, const std::string& fragment) { return xml.find(fragment) != std::string::npos; }

TEST(XlsxWorkbook, HeaderIsFrozenAndAutofilteredWithTheHiddenFilterDatabaseName) {
  TempDir dir;
  const std::string file = FeatureWorkbook(dir);
  const std::string sheet = Member(file, "xl/worksheets/sheet1.xml");
  EXPECT_TRUE(Has(sheet, "<pane ySplit=\"1\" topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/>")) << sheet;
  EXPECT_TRUE(Has(sheet, "<autoFilter ref=\"A1:B4\"/>"));
  EXPECT_TRUE(Has(Member(file, "xl/workbook.xml"),
                  "<definedName name=\"_xlnm._FilterDatabase\" localSheetId=\"0\" hidden=\"1\">data!$A$1:$B$4"));
  EXPECT_FALSE(Has(Member(file, "xl/worksheets/sheet2.xml"), "autoFilter"));
}

TEST(XlsxWorkbook, RowStyleMarksTheWholeRowAndItsCells) {
  TempDir dir;
  const std::string sheet = Member(FeatureWorkbook(dir), "xl/worksheets/sheet1.xml");
  // Style 1 is the header's; the red fill is the next.
  EXPECT_TRUE(Has(sheet, "<row r=\"3\" s=\"2\" customFormat=\"1\"><c r=\"A3\" s=\"2\" t=\"inlineStr\">"
                         "<is><t>r1</t></is></c><c r=\"B3\" s=\"2\"/></row>")) << sheet;
  EXPECT_TRUE(Has(Member(FeatureWorkbook(dir), "xl/styles.xml"), "<fgColor rgb=\"FFFF0000\"/>"));
}

TEST(XlsxWorkbook, InternalLinkHasItsLocation) {
  TempDir dir;
  const std::string sheet = Member(FeatureWorkbook(dir), "xl/worksheets/sheet2.xml");
  EXPECT_TRUE(Has(sheet, "<hyperlink ref=\"A1\" location=\"'data'!A3\" display=\"r1 &amp; &lt;more&gt;\"/>")) << sheet;
}

TEST(XlsxWorkbook, ChartIsAStraightScatterWithGapsALogAxisAndMarkedSeries) {
  TempDir dir;
  const std::string file = FeatureWorkbook(dir);
  EXPECT_TRUE(Has(Member(file, "xl/worksheets/sheet2.xml"), "<drawing r:id=\"rId1\"/>"));
  const std::string chart = Member(file, "xl/charts/chart1.xml");
  EXPECT_TRUE(Has(chart, "<c:scatterChart><c:scatterStyle val=\"lineMarker\"/>")) << chart;
  // Blanks as gaps is the default libxlsxwriter leaves unsaid: Excel's, and LibreOffice's for a
  // file whose docProps/app.xml says Excel 12 (LibreOffice's default is 0 for other files).
  EXPECT_FALSE(Has(chart, "<c:dispBlanksAs"));
  EXPECT_TRUE(Has(Member(file, "docProps/app.xml"), "<AppVersion>12.0000</AppVersion>"));
  EXPECT_TRUE(Has(chart, "<c:logBase val=\"10\"/>"));
  EXPECT_TRUE(Has(chart, "<c:f>'my plot'!$A$1:$A$3</c:f>"));
  EXPECT_TRUE(Has(chart, "<c:f>'my plot'!$B$1:$B$3</c:f>"));
  EXPECT_TRUE(Has(chart, "<a:srgbClr val=\"4472C4\"/>"));
  EXPECT_TRUE(Has(chart, "<a:srgbClr val=\"FF0000\"/>"));
  EXPECT_TRUE(Has(chart, "<a:ln w=\"15875\"><a:noFill/></a:ln>"));  // the marked series: markers only
  EXPECT_FALSE(Has(chart, "<c:smooth val=\"1\"/>"));
  EXPECT_TRUE(Has(chart, "<a:t>value along the rows</a:t>"));
}

TEST(XlsxWorkbook, WorkbookReadsBack) {
  TempDir dir;
  auto rows = ReadXlsxSheetRows(AsBytes(FeatureWorkbook(dir)), "f.xlsx", 0);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 4u);
  EXPECT_EQ((*rows)[0][0].text, "name");
  EXPECT_EQ((*rows)[1][1].number, 0);
  EXPECT_EQ((*rows)[2][0].text, "r1");
  EXPECT_EQ((*rows)[2][1].type, Type::kEmpty);
  EXPECT_EQ((*rows)[3][1].number, 0.5);
}

// Rows formatted on many threads in many batches come back in order, cell by cell.
TEST(XlsxWorkbook, ManyBatchesReadBackInOrder) {
  TempDir dir;
  constexpr uint64_t kRows = 20'000;
  auto book = XlsxWorkbook::Create(dir.Path("m.xlsx"), kRows * 3);
  ASSERT_TRUE(book.ok());
  auto sheet = (*book)->AddSheet("Sheet1");
  ASSERT_TRUE(sheet.ok());
  ASSERT_TRUE((*sheet)->WriteHeader({"name", "x", "odd"}, kRows).ok());
  ASSERT_TRUE((*sheet)->WriteRows(kRows, [](uint64_t first, uint64_t end, XlsxRowBatch* batch) {
    for (uint64_t i = first; i < end; ++i) {
      batch->BeginRow(i + 2);
      batch->Text(0, RowName(i));
      batch->Number(1, static_cast<double>(i) + 0.25);
      batch->Bool(2, i % 2 == 1);
    }
  }).ok());
  ASSERT_TRUE((*book)->Close().ok());
  auto rows = ReadXlsxSheetRows(AsBytes(ReadFile(dir.Path("m.xlsx"))), "m.xlsx", 0);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), kRows + 1);
  for (uint64_t i = 0; i < kRows; ++i) {
    const std::vector<XlsxCell>& r = (*rows)[i + 1];
    ASSERT_EQ(r[0].text, RowName(i));
    ASSERT_EQ(r[1].number, static_cast<double>(i) + 0.25);
    ASSERT_EQ(r[2].type, Type::kBool);
    ASSERT_EQ(r[2].number != 0, i % 2 == 1);
  }
}

// libxlsxwriter writes numbers with 16 significant digits: a cell may differ from the shortest
// round-trip form in the 17th (docs/compatibility.md, "Outputs").
TEST(XlsxWorkbook, NumbersKeepSixteenSignificantDigits) {
  TempDir dir;
  const double values[] = {0.1 + 0.2, 1.0 / 3, 1e-300, -123456.789012345678, 0.9999995};
  auto book = XlsxWorkbook::Create(dir.Path("n.xlsx"), 8);
  ASSERT_TRUE(book.ok());
  auto sheet = (*book)->AddSheet("n");
  ASSERT_TRUE(sheet.ok());
  ASSERT_TRUE((*sheet)->WriteRows(1, [&](uint64_t, uint64_t, XlsxRowBatch* batch) {
    batch->BeginRow(1);
    for (uint32_t c = 0; c < std::size(values); ++c) batch->Number(c, values[c]);
  }).ok());
  ASSERT_TRUE((*book)->Close().ok());
  auto rows = ReadXlsxSheetRows(AsBytes(ReadFile(dir.Path("n.xlsx"))), "n.xlsx", 0);
  ASSERT_TRUE(rows.ok());
  for (size_t c = 0; c < std::size(values); ++c) {
    EXPECT_NEAR((*rows)[0][c].number, values[c], std::fabs(values[c]) * 1e-15) << c;
  }
}

TEST(XlsxWorkbook, TextsAreEscapedAsExcelReadsThemBack) {
  TempDir dir;
  auto book = XlsxWorkbook::Create(dir.Path("t.xlsx"), 8);
  ASSERT_TRUE(book.ok());
  auto sheet = (*book)->AddSheet("t");
  ASSERT_TRUE(sheet.ok());
  ASSERT_TRUE((*sheet)->WriteRows(1, [](uint64_t, uint64_t, XlsxRowBatch* batch) {
    batch->BeginRow(1);
    batch->Text(0, "a_x0041_b");                    // Excel would read _x0041_ as "A"
    batch->Text(1, std::string_view("n\0ul\x01", 5));  // a NUL and a control character
    batch->Text(2, " =1+1 ");                       // a text, never a formula; spaces kept
    batch->Text(3, "x\uFFFEy\uFFFFz\uFFFD\u00EF");      // XML 1.0 has no U+FFFE, U+FFFF; U+FFFD and ï are fine
  }).ok());
  ASSERT_TRUE((*book)->Close().ok());
  const std::string sheet_xml = Member(ReadFile(dir.Path("t.xlsx")), "xl/worksheets/sheet1.xml");
  EXPECT_TRUE(Has(sheet_xml, "<t>a_x005F_x0041_b</t>")) << sheet_xml;
  EXPECT_TRUE(Has(sheet_xml, "<t>n_x0000_ul_x0001_</t>"));
  EXPECT_TRUE(Has(sheet_xml, "<t xml:space=\"preserve\"> =1+1 </t>"));
  EXPECT_TRUE(Has(sheet_xml, "<t>x_xFFFE_y_xFFFF_z\uFFFD\u00EF</t>")) << sheet_xml;
  EXPECT_FALSE(Has(sheet_xml, "<f>"));
  // Our reader (the merge's) decodes the escapes as Excel does: every text reads back as written.
  auto rows = ReadXlsxSheetRows(AsBytes(ReadFile(dir.Path("t.xlsx"))), "t.xlsx", 0);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0][0].text, "a_x0041_b");
  EXPECT_EQ((*rows)[0][1].text, std::string("n\0ul\x01", 5));
  EXPECT_EQ((*rows)[0][2].text, " =1+1 ");
  EXPECT_EQ((*rows)[0][3].text, "x\uFFFEy\uFFFFz\uFFFD\u00EF");
}

// Raw deflate of `bytes` as minizip sets zlib up, at `level`: its compressed size.
uint64_t DeflatedSize(const std::string& bytes, int level) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, bytes.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  const uint64_t size = z.total_out;
  deflateEnd(&z);
  return size;
}

// Raw deflate of `bytes` by ISA-L at its level 1, in one call: its compressed size.
uint64_t IsalDeflatedSize(const std::string& bytes) {
  isal_zstream z{};
  isal_deflate_init(&z);
  std::vector<uint8_t> level_buf(ISAL_DEF_LVL1_DEFAULT);
  z.level = 1;
  z.level_buf = level_buf.data();
  z.level_buf_size = static_cast<uint32_t>(level_buf.size());
  z.gzip_flag = IGZIP_DEFLATE;
  std::string out(bytes.size() + 1024, '\0');
  z.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uint32_t>(bytes.size());
  z.next_out = reinterpret_cast<uint8_t*>(out.data());
  z.avail_out = static_cast<uint32_t>(out.size());
  z.end_of_stream = 1;
  EXPECT_EQ(isal_deflate(&z), COMP_OK);
  EXPECT_EQ(z.internal_state.state, ZSTATE_END);
  return z.total_out;
}

// libxlsxwriter deflates at zlib's default level; ours (xlsx_package_deflate_internal.h) is ISA-L's
// level 1, for the workbook only: a deflate of our own at the default level stays zlib's level 6.
TEST(XlsxWorkbook, PackageIsDeflatedByIsalAndOtherDeflatesAreLeftAlone) {
  TempDir dir;
  const std::string file = FeatureWorkbook(dir);
  auto archive = ZipArchive::Open(AsBytes(file), "f.xlsx");
  ASSERT_TRUE(archive.ok());
  const ZipEntry* theme = archive->Find("xl/theme/theme1.xml");
  ASSERT_NE(theme, nullptr);
  const std::string xml = Member(file, "xl/theme/theme1.xml");
  ASSERT_NE(IsalDeflatedSize(xml), DeflatedSize(xml, 1));
  EXPECT_EQ(theme->compressed_size, IsalDeflatedSize(xml));
  EXPECT_EQ(DeflatedSize(xml, Z_DEFAULT_COMPRESSION), DeflatedSize(xml, 6));
}

// minizip's CRC-32 of a member, on the thread packing a workbook, is ISA-L's: the same as zlib's over
// chained pieces of every length; zlib's crc32_z, not interposed, is the reference.
TEST(XlsxWorkbook, PackageCrcIsZlibsCrc32) {
  EXPECT_NE(dlsym(RTLD_DEFAULT, "crc32"), dlsym(RTLD_NEXT, "crc32"));  // the program's comes first
  std::mt19937_64 rng(7);
  std::string bytes(70000, '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  const internal::XlsxPackageDeflate packaging;
  EXPECT_EQ(crc32(crc32(0, Z_NULL, 0), reinterpret_cast<const Bytef*>("123456789"), 9), 0xCBF43926u);
  for (size_t piece : {1u, 3u, 15u, 16u, 64u, 255u, 4096u, 16384u, 70000u}) {
    uLong ours = crc32(0, Z_NULL, 0);
    for (size_t at = 0; at < bytes.size(); at += piece) {
      const size_t n = std::min(piece, bytes.size() - at);
      ours = crc32(ours, reinterpret_cast<const Bytef*>(bytes.data() + at), static_cast<uInt>(n));
      ours = crc32(ours, reinterpret_cast<const Bytef*>(bytes.data()), 0);  // an empty piece changes nothing
    }
    EXPECT_EQ(ours, crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size())) << piece;
  }
}

constexpr uint64_t kBigRows = 20000;

// A workbook of one sheet of kBigRows rows (name, row / 8), closed on the calling thread.
void WriteBigWorkbook(const std::string& path) {
  auto book = XlsxWorkbook::Create(path, kBigRows * 2);
  ASSERT_TRUE(book.ok());
  auto sheet = (*book)->AddSheet("big");
  ASSERT_TRUE(sheet.ok());
  ASSERT_TRUE((*sheet)->WriteRows(kBigRows, [](uint64_t first, uint64_t end, XlsxRowBatch* batch) {
    for (uint64_t i = first; i < end; ++i) {
      batch->BeginRow(i + 1);
      batch->Text(0, RowName(i));
      batch->Number(1, static_cast<double>(i) / 8);
    }
  }).ok());
  ASSERT_TRUE((*book)->Close().ok());
}

// The sheet XML read back through minizip and zlib's inflate, its CRC-32 and sizes checked by
// unzCloseCurrentFile.
void ExpectBigSheetInflates(const std::string& path) {
  unzFile zip = unzOpen64(path.c_str());
  ASSERT_NE(zip, nullptr);
  ASSERT_EQ(unzLocateFile(zip, "xl/worksheets/sheet1.xml", 1), UNZ_OK);
  ASSERT_EQ(unzOpenCurrentFile(zip), UNZ_OK);
  std::string xml;
  char buf[65536];
  int n = 0;
  while ((n = unzReadCurrentFile(zip, buf, sizeof(buf))) > 0) xml.append(buf, static_cast<size_t>(n));
  EXPECT_EQ(n, 0);
  EXPECT_EQ(unzCloseCurrentFile(zip), UNZ_OK);
  unzClose(zip);
  EXPECT_GT(xml.size(), 20u * 16384);  // many of minizip's 16 KB calls
  EXPECT_TRUE(Has(xml, "<c r=\"B20000\"><v>2499.875</v></c></row></sheetData>")) << xml.substr(xml.size() - 300);
}

TEST(XlsxWorkbook, BigSheetInflatesWithZlib) {
  TempDir dir;
  WriteBigWorkbook(dir.Path("big.xlsx"));
  ExpectBigSheetInflates(dir.Path("big.xlsx"));
}

// Two workbooks packed at once, each on its own thread, each member on its own ISA-L stream.
TEST(XlsxWorkbook, WorkbooksClosedOnTwoThreadsAtOnceInflate) {
  TempDir dir;
  std::thread other([&] { WriteBigWorkbook(dir.Path("a.xlsx")); });
  WriteBigWorkbook(dir.Path("b.xlsx"));
  other.join();
  ExpectBigSheetInflates(dir.Path("a.xlsx"));
  ExpectBigSheetInflates(dir.Path("b.xlsx"));
}

// A member deflated through the interposed zlib calls as minizip makes them: 16 KB of input a
// call, output drained `out_room` bytes at a time, then Z_FINISH until the stream ends.
std::string DeflatedAsMinizipDoes(const std::string& input, size_t out_room) {
  const internal::XlsxPackageDeflate packaging;
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  EXPECT_EQ(z.state, nullptr);  // ours, not zlib's
  std::string out;
  std::vector<char> room(out_room);
  const auto drain = [&] {
    out.append(room.data(), out_room - z.avail_out);
    z.next_out = reinterpret_cast<Bytef*>(room.data());
    z.avail_out = static_cast<uInt>(out_room);
  };
  z.next_out = reinterpret_cast<Bytef*>(room.data());
  z.avail_out = static_cast<uInt>(out_room);
  for (size_t at = 0; at < input.size(); at += 16384) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data() + at));
    z.avail_in = static_cast<uInt>(std::min<size_t>(16384, input.size() - at));
    while (z.avail_in > 0) {
      if (z.avail_out == 0) drain();
      EXPECT_EQ(deflate(&z, Z_NO_FLUSH), Z_OK);
    }
  }
  for (int err = Z_OK; err == Z_OK;) {
    if (z.avail_out == 0) drain();
    err = deflate(&z, Z_FINISH);
    EXPECT_TRUE(err == Z_OK || err == Z_STREAM_END) << err;
  }
  drain();
  EXPECT_EQ(z.total_in, input.size());
  EXPECT_EQ(z.total_out, out.size());
  EXPECT_EQ(deflateEnd(&z), Z_OK);
  return out;
}

// zlib's raw inflate of `deflated`, which must end exactly at its end.
std::string Inflated(const std::string& deflated, size_t size) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, -MAX_WBITS), Z_OK);
  std::string out(size + 1, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(deflated.data()));
  z.avail_in = static_cast<uInt>(deflated.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
  EXPECT_EQ(z.avail_in, 0u);
  out.resize(z.total_out);
  inflateEnd(&z);
  return out;
}

// Sheet-like text of `size` bytes, with stretches of noise that do not compress.
std::string SheetLikeText(size_t size) {
  std::mt19937_64 rng(11);
  std::string sheet;
  while (sheet.size() < size) {
    sheet += "<row r=\"" + std::to_string(rng() % 1000000) + "\"><c r=\"A1\"><v>0.";
    for (int k = 0; k < 16; ++k) sheet.push_back(static_cast<char>('0' + rng() % 10));
    sheet += "</v></c></row>";
    if (rng() % 1000 == 0) {
      for (int k = 0; k < 70000; ++k) sheet.push_back(static_cast<char>(rng()));
    }
  }
  sheet.resize(size);
  return sheet;
}

constexpr size_t kMiB = size_t{1} << 20;

// A big member is deflated in 1 MiB blocks on several threads (xlsx_package_deflate_internal.h);
// their output is one deflate stream that zlib inflates back to the input, at every size around a
// block and past a batch of blocks (2 per core, 2 to 32) on any number of cores, with the output
// drained in small pieces.
TEST(XlsxWorkbook, PackageMembersDeflatedInParallelBlocksInflate) {
  const std::string sheet = SheetLikeText(70 * kMiB);
  for (const size_t size : {size_t{0}, size_t{1}, kMiB - 1, kMiB, kMiB + 1, 4 * kMiB, 5 * kMiB + 12345, 32 * kMiB,
                            sheet.size()}) {
    const std::string input = sheet.substr(0, size);
    const std::string deflated = DeflatedAsMinizipDoes(input, size < kMiB ? 4096 : 65536);
    EXPECT_TRUE(Inflated(deflated, size) == input) << size;
    // Each block primed with the 32 KB before it: within 1% of one stream's size.
    EXPECT_LE(deflated.size(), IsalDeflatedSize(input) * 101 / 100 + 16) << size;
  }
}

// The blocks' bounds, and so the package's bytes, do not depend on the cores: a member ending where
// one core count's batch ends and another's does not is deflated the same under both.
TEST(XlsxWorkbook, PackageMembersAreTheSameBytesOnAnyNumberOfCores) {
  const std::string sheet = SheetLikeText(40 * kMiB);
  for (const size_t size : {4 * kMiB, 8 * kMiB, 5 * kMiB + 7, sheet.size()}) {
    const std::string input = sheet.substr(0, size);
    std::string one, four;
    tbb::task_arena(1).execute([&] { one = DeflatedAsMinizipDoes(input, 65536); });
    tbb::task_arena(4).execute([&] { four = DeflatedAsMinizipDoes(input, 65536); });
    EXPECT_TRUE(one == four) << size << ": " << one.size() << " and " << four.size() << " bytes";
  }
}

TEST(XlsxWorkbook, SheetNamesExcelRefusesAreErrors) {
  TempDir dir;
  auto book = XlsxWorkbook::Create(dir.Path("s.xlsx"), 8);
  ASSERT_TRUE(book.ok());
  ASSERT_TRUE((*book)->AddSheet("Rank0").ok());
  EXPECT_STATUS((*book)->AddSheet("rank0"), Code::kInvalidInput, "sheet name 'rank0' is used twice");
  EXPECT_STATUS((*book)->AddSheet(""), Code::kInvalidInput, "cannot name a sheet");
  EXPECT_STATUS((*book)->AddSheet("a/b"), Code::kInvalidInput, "cannot name a sheet");
  EXPECT_STATUS((*book)->AddSheet("'quoted'"), Code::kInvalidInput, "cannot name a sheet");
  EXPECT_STATUS((*book)->AddSheet(std::string(32, 'x')), Code::kInvalidInput, "cannot name a sheet");
  EXPECT_TRUE((*book)->AddSheet(std::string(31, 'x')).ok());
}

TEST(XlsxWorkbook, UnclosedWorkbookLeavesNoFile) {
  TempDir dir;
  {
    auto book = XlsxWorkbook::Create(dir.Path("u.xlsx"), 8);
    ASSERT_TRUE(book.ok());
    ASSERT_TRUE((*book)->AddSheet("s").ok());
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.Path("")));
  EXPECT_STATUS(XlsxWorkbook::Create(dir.Path("no/such/u.xlsx"), 8), Code::kIOError, "cannot create");
}

TEST(XlsxWorkbook, SheetRefsQuoteWhatExcelWouldNotReadAsAName) {
  EXPECT_EQ(XlsxSheetRef("summary"), "summary");
  EXPECT_EQ(XlsxSheetRef("part_0"), "part_0");
  EXPECT_EQ(XlsxSheetRef("Sheet1"), "Sheet1");
  EXPECT_EQ(XlsxSheetRef("AB12"), "'AB12'");  // a cell reference
  EXPECT_EQ(XlsxSheetRef("1st"), "'1st'");
  EXPECT_EQ(XlsxSheetRef("my plot"), "'my plot'");
  EXPECT_EQ(XlsxSheetRef("it's"), "'it''s'");
  EXPECT_EQ(XlsxRangeRef("summary", 4, 2, 53), "=summary!$E$2:$E$53");
  EXPECT_EQ(XlsxRangeRef("summary", 16383, 1, 1), "=summary!$XFD$1:$XFD$1");
}

}  // namespace
}  // namespace msprobe::compare
