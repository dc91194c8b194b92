#include "msprobe/compare/xlsx/xlsx_reader.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "msprobe/compare/table/result_table.h"
#include "msprobe/compare/output/xlsx_writer.h"
#include "test_support.h"
#include "zip_fixture.h"

namespace msprobe::compare {
namespace {

using msprobe::testing::ReadFile;
using msprobe::testing::TempDir;
using msprobe::testing::TestData;
using Type = XlsxCell::Type;

Result<std::vector<std::vector<XlsxCell>>> ReadRows(const std::string& bytes, size_t sheet = 0) {
  return ReadXlsxSheetRows(AsBytes(bytes), "test.xlsx", sheet);
}

TEST(XlsxReader, HandmadeWorkbookGivesEveryCellType) {
  const std::string bytes = ReadFile(TestData("merge/handmade.xlsx"));
  auto reader = XlsxReader::Open(AsBytes(bytes), "handmade.xlsx");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(reader->sheet_names(), (std::vector<std::string>{"First & only", "Second"}));

  auto rows = ReadRows(bytes);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 5u);  // row 3 is absent from the file: an empty row
  const auto& r = *rows;
  EXPECT_EQ(r[0][0].type, Type::kText);
  EXPECT_EQ(r[0][0].text, "NPU Name");
  EXPECT_EQ(r[0][1].text, "Value");
  EXPECT_EQ(r[1][0].text, "rich text");  // runs joined, the phonetic run skipped
  EXPECT_EQ(r[1][1].type, Type::kNumber);
  EXPECT_EQ(r[1][1].number, 0.5);
  EXPECT_EQ(r[1][2].type, Type::kEmpty);  // C2 absent
  EXPECT_EQ(r[1][3].type, Type::kBool);
  EXPECT_EQ(r[1][3].number, 1);
  EXPECT_TRUE(r[2].empty());
  EXPECT_EQ(r[3][0].text, "a<b>&\"\xCE\xA3\xCE\xA3");
  EXPECT_EQ(r[3][1].type, Type::kText);  // t="str": the cached formula result
  EXPECT_EQ(r[3][1].text, "xy");
  EXPECT_EQ(r[3][2].type, Type::kError);
  EXPECT_EQ(r[3][2].text, "#N/A");
  EXPECT_EQ(r[3][3].number, -1.5e-3);
  EXPECT_EQ(r[4][0].text, "<raw & text>");
  EXPECT_EQ(r[4][1].type, Type::kEmpty);
  EXPECT_EQ(r[4][2].type, Type::kBool);
  EXPECT_EQ(r[4][2].number, 0);

  auto second = ReadRows(bytes, 1);  // a stored (not deflated) part with an absolute target
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ((*second)[0][0].text, "second");
}

TEST(XlsxReader, ReadsMsprobeOpenpyxlOutput) {
  MSP_REQUIRE_SHARED(path, "msprobe_samples/dist2/cmp_t/compare_result_rank0_20261121210212.xlsx");
  const std::string bytes = ReadFile(path);
  auto rows = ReadRows(bytes);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  const auto& header = (*rows)[0];
  ASSERT_GE(header.size(), 9u);
  EXPECT_EQ(header[0].text, "NPU Name");
  EXPECT_EQ(header[8].text, "Cosine");
  // Row 2 as the file holds it (docs/formats.md §8 sample): an inline string name and a number cell.
  EXPECT_EQ((*rows)[1][0].type, Type::kText);
  bool saw_number = false, saw_bool = false;
  for (const auto& row : *rows) {
    for (const auto& cell : row) {
      saw_number |= cell.type == Type::kNumber;
      saw_bool |= cell.type == Type::kBool;
    }
  }
  EXPECT_TRUE(saw_number);
  EXPECT_TRUE(saw_bool);  // Requires_grad Consistent
}

TEST(XlsxReader, ReadsOurWritersOutput) {
  ResultTable table;
  table.mode = CompareMode::kTensor;
  ResultRow row;
  row.target_name = "Functional.linear.0.forward.input.0";
  row.metrics = {Cell::Float(0.25), Cell::NA(), Cell::Int(3), Cell::Text("=1+1"), Cell::Float(1e-300), Cell::Float(2)};
  row.requires_grad_consistent = true;
  table.rows.push_back(row);
  TempDir dir;
  ASSERT_TRUE(WriteXlsx(dir.Path("r.xlsx"), table).ok());
  const std::string bytes = ReadFile(dir.Path("r.xlsx"));
  auto reader = XlsxReader::Open(AsBytes(bytes), "r.xlsx");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(reader->sheet_names().front(), "Sheet1");
  auto rows = ReadRows(bytes);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 2u);
  const auto& cells = (*rows)[1];
  EXPECT_EQ(cells[0].text, "Functional.linear.0.forward.input.0");
  EXPECT_EQ(cells[8].type, Type::kNumber);
  EXPECT_EQ(cells[8].number, 0.25);
  EXPECT_EQ(cells[9].text, "N/A");
  EXPECT_EQ(cells[10].number, 3);
  EXPECT_EQ(cells[11].type, Type::kText);  // never a formula
  EXPECT_EQ(cells[11].text, "=1+1");
  EXPECT_EQ(cells[12].number, 1e-300);
  EXPECT_EQ(cells[22].type, Type::kBool);  // Requires_grad Consistent
}

// A sheet far larger than one inflate chunk (256 KiB), so tags and texts straddle chunk ends;
// every value is known from the table written.
TEST(XlsxReader, LargeSheetStreamsAcrossInflateChunks) {
  constexpr size_t kRows = 4000;
  ResultTable table;
  table.mode = CompareMode::kTensor;
  for (size_t i = 0; i < kRows; ++i) {
    ResultRow row;
    row.target_name = "Functional.linear." + std::to_string(i) + ".forward.input.0";
    row.golden_name = i % 2 ? "bench & <" + std::to_string(i) + ">" : "";
    row.metrics = {Cell::Float(static_cast<double>(i) + 0.25), Cell::NA(), Cell::Int(3), Cell::Float(1), Cell::Float(2),
                   Cell::Float(2)};
    table.rows.push_back(row);
  }
  TempDir dir;
  ASSERT_TRUE(WriteXlsx(dir.Path("big.xlsx"), table).ok());
  const std::string bytes = ReadFile(dir.Path("big.xlsx"));
  auto zip = ZipArchive::Open(AsBytes(bytes), "big.xlsx");
  ASSERT_TRUE(zip.ok());
  const ZipEntry* sheet = zip->Find("xl/worksheets/sheet1.xml");
  ASSERT_NE(sheet, nullptr);
  ASSERT_GT(sheet->uncompressed_size, 4u * 256 * 1024);

  auto rows = ReadRows(bytes);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), kRows + 1);
  for (size_t i = 0; i < kRows; ++i) {
    const auto& cells = (*rows)[i + 1];
    ASSERT_GE(cells.size(), 10u);
    EXPECT_EQ(cells[0].text, "Functional.linear." + std::to_string(i) + ".forward.input.0");
    EXPECT_EQ(cells[1].text, i % 2 ? "bench & <" + std::to_string(i) + ">" : "");
    EXPECT_EQ(cells[8].type, Type::kNumber);
    EXPECT_EQ(cells[8].number, static_cast<double>(i) + 0.25);
    EXPECT_EQ(cells[9].text, "N/A");
  }

  // Decoding column A only: B's texts come without their bytes, kEmpty exactly when empty;
  // numbers are still read.
  auto reader = XlsxReader::Open(AsBytes(bytes), "big.xlsx");
  ASSERT_TRUE(reader.ok());
  const std::vector<bool> decode = {true};
  size_t seen = 0;
  ASSERT_TRUE(reader->ReadSheet(0, [&](uint32_t row_number, std::span<const XlsxCell> cells) -> Status {
    if (row_number == 1) return Status::Ok();
    const size_t i = row_number - 2;
    ++seen;
    EXPECT_EQ(cells[0].text, "Functional.linear." + std::to_string(i) + ".forward.input.0");
    EXPECT_EQ(cells[1].type, i % 2 ? Type::kText : Type::kEmpty);
    EXPECT_EQ(cells[1].text, "");
    EXPECT_EQ(cells[9].type, Type::kText);  // "N/A", not kept
    EXPECT_EQ(cells[9].text, "");
    EXPECT_EQ(cells[8].number, static_cast<double>(i) + 0.25);
    return Status::Ok();
  }, &decode).ok());
  EXPECT_EQ(seen, kRows);
}

// A one-sheet workbook around `sheet_data` (the inside of <sheetData>).
std::string WorkbookAround(const std::string& sheet_data) {
  return testing::ZipOf({{"xl/_rels/workbook.xml.rels",
                          "<Relationships><Relationship Id=\"rId1\" Target=\"worksheets/sheet1.xml\"/></Relationships>"},
                         {"xl/workbook.xml", "<workbook><sheets><sheet name=\"S\" r:id=\"rId1\"/></sheets></workbook>"},
                         {"xl/worksheets/sheet1.xml", "<worksheet><sheetData>" + sheet_data + "</sheetData></worksheet>"}});
}

// The reader takes cell tags in the usual form in one step and every other form token by token;
// both must read alike.
TEST(XlsxReader, CellTagsInUnusualFormsReadLikeTheUsualOne) {
  const std::string bytes = WorkbookAround(
      "<row r=\"1\">"
      "<c r=\"A1\"  t=\"inlineStr\"><is><t>two spaces</t></is></c>"
      "<c\nr=\"B1\"\tt=\"inlineStr\"><is><t>newline and tab</t></is></c>"
      "<x:c x:r=\"C1\" x:t=\"inlineStr\"><is><t>prefixed</t></is></x:c>"
      "<c t='n' r='D1'><v>2.5</v></c>"
      "<c r=\"E1\" note=\"a>b\" t=\"b\"><v>1</v></c>"
      "<c r=\"F1\"/>"
      "<c><v>7</v></c>"
      "<c r=\"H1\" t=\"inlineStr\" ><is><t>space before &gt;</t></is></c>"
      "<c r=\"I1\" t=\"n\" t=\"inlineStr\"><v>3</v></c>"
      "<c r\t=\"J1\" t\n=\"inlineStr\"><is><t>space before =</t></is></c>"
      "</row>");
  auto rows = ReadRows(bytes);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 1u);
  const auto& c = (*rows)[0];
  ASSERT_EQ(c.size(), 10u);
  EXPECT_EQ(c[0].text, "two spaces");
  EXPECT_EQ(c[1].text, "newline and tab");
  EXPECT_EQ(c[2].text, "prefixed");
  EXPECT_EQ(c[3].type, Type::kNumber);
  EXPECT_EQ(c[3].number, 2.5);
  EXPECT_EQ(c[4].type, Type::kBool);
  EXPECT_EQ(c[4].number, 1);
  EXPECT_EQ(c[5].type, Type::kEmpty);
  EXPECT_EQ(c[6].type, Type::kNumber);  // no r: the column after F
  EXPECT_EQ(c[6].number, 7);
  EXPECT_EQ(c[7].text, "space before >");
  EXPECT_EQ(c[8].type, Type::kNumber);  // the first t wins
  EXPECT_EQ(c[8].number, 3);
  EXPECT_EQ(c[9].text, "space before =");
}

TEST(XlsxReader, MalformedCellReferenceIsAnErrorInEitherForm) {
  EXPECT_STATUS(ReadRows(WorkbookAround("<row><c r=\"A0\"><v>1</v></c></row>")), Code::kInvalidInput,
                "cell reference 'A0' is malformed");
  EXPECT_STATUS(ReadRows(WorkbookAround("<row><c  r=\"B12345678\"><v>1</v></c></row>")), Code::kInvalidInput,
                "cell reference 'B12345678' is malformed");
  EXPECT_STATUS(ReadRows(WorkbookAround("<row><c r=\"C1x\"/></row>")), Code::kInvalidInput,
                "cell reference 'C1x' is malformed");
}

TEST(XlsxReader, TruncatedArchiveIsAnError) {
  const std::string bytes = ReadFile(TestData("merge/handmade.xlsx"));
  EXPECT_STATUS(XlsxReader::Open(AsBytes(bytes.substr(0, bytes.size() / 2)), "cut.xlsx"), Code::kInvalidInput,
                "end of central directory");
}

TEST(XlsxReader, CorruptDeflateDataIsAnError) {
  std::string bytes = ReadFile(TestData("merge/handmade.xlsx"));
  auto zip = ZipArchive::Open(AsBytes(bytes), "handmade.xlsx");
  ASSERT_TRUE(zip.ok());
  const ZipEntry* sheet = zip->Find("xl/worksheets/sheet1.xml");
  ASSERT_NE(sheet, nullptr);
  ASSERT_EQ(sheet->method, 8);
  // 0xFF opens a block of the reserved type 3.
  for (uint64_t i = 0; i < sheet->compressed_size; ++i) bytes[sheet->data_offset + i] = '\xff';
  auto rows = ReadRows(bytes);
  EXPECT_STATUS(rows, Code::kInvalidInput, "corrupt deflate data");
}

TEST(XlsxReader, NotAZipIsAnError) {
  EXPECT_STATUS(XlsxReader::Open(AsBytes(std::string(100, 'x')), "plain.xlsx"), Code::kInvalidInput,
                "end of central directory");
}

}  // namespace
}  // namespace msprobe::compare
