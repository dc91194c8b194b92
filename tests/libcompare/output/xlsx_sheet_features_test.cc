// The stream writer's sheet features beyond plain tables (xlsx_stream_writer.h): autofilter with its
// defined name, row and custom cell styles, internal hyperlinks, and a line chart with its drawing,
// checked against literal XML written the way libxlsxwriter writes the same features.
#include <gtest/gtest.h>

#include <string>

#include "msprobe/compare/xlsx/xlsx_reader.h"
#include "msprobe/compare/xlsx/xlsx_row_xml.h"
#include "msprobe/compare/xlsx/xlsx_stream_writer.h"
#include "msprobe/dump/formats/zip_archive.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

// "r" and the row index (appended: GCC 12 flags "r" + std::to_string(i) with a false -Wrestrict).
std::string RowName(uint64_t i) {
  std::string name = "r";
  name += std::to_string(i);
  return name;
}

// A workbook: "data" (2 columns, 3 rows, autofiltered, one red row) and "plot" (no header, a
// link to data!A3 and a chart of B1:B3).
std::string FeatureWorkbook() {
  std::string file;
  XlsxStreamWriter writer([&](std::string_view b) { file.append(b); return Status::Ok(); }, "f.xlsx");
  XlsxSheetPlan data;
  data.name = "data";
  data.filter_columns = 2;
  data.filter_rows = 3;
  XlsxSheetPlan plot;
  plot.name = "my plot";
  plot.chart = true;
  XlsxCellStyle red;
  red.fill_rgb = 0xFF0000;
  XlsxCellStyle link;
  link.hyperlink = true;
  XlsxCellStyle percent;
  percent.number_format = 10;
  percent.bold = true;
  EXPECT_TRUE(writer.Begin({data, plot}, {red, link, percent}).ok());

  XlsxSheetLayout layout;
  layout.name = "data";
  layout.header = {"name", "value"};
  layout.widths = {10, 8};
  layout.rows = 3;
  layout.xml_bytes_bound = 4096;
  EXPECT_TRUE(writer.WriteSheet(layout, [](uint64_t first, uint64_t end, XlsxRowXml* xml) {
    for (uint64_t i = first; i < end; ++i) {
      const uint32_t style = i == 1 ? kXlsxFirstCustomStyle : 0;
      xml->BeginRow(i + 2, style);
      xml->Text(0, RowName(i), style);
      if (i == 1) {
        xml->Blank(1, style);
      } else {
        xml->Number(1, static_cast<double>(i) / 4, style);
      }
      xml->EndRow();
    }
  }).ok());

  XlsxSheetLayout sheet;
  sheet.name = "my plot";
  sheet.widths = {14, 0};
  sheet.column_styles = {0, kXlsxFirstCustomStyle + 2};
  sheet.rows = 3;
  sheet.xml_bytes_bound = 4096;
  sheet.hyperlinks = {{"A1", "'data'!A3", "r1 & <more>"}};
  XlsxLineChart chart;
  chart.title = "value along the rows";
  chart.series_name = "value";
  chart.x_axis_title = "row";
  chart.y_axis_title = "value";
  chart.categories = XlsxRangeRef("my plot", 0, 1, 3);
  chart.values = XlsxRangeRef("my plot", 1, 1, 3);
  chart.column = 3;
  chart.row = 1;
  sheet.chart = chart;
  EXPECT_TRUE(writer.WriteSheet(sheet, [](uint64_t first, uint64_t end, XlsxRowXml* xml) {
    for (uint64_t i = first; i < end; ++i) {
      xml->BeginRow(i + 1);
      xml->Text(0, RowName(i), i == 0 ? kXlsxFirstCustomStyle + 1 : 0);
      xml->Number(1, static_cast<double>(i), kXlsxFirstCustomStyle + 2);
      xml->EndRow();
    }
  }).ok());
  EXPECT_TRUE(writer.Finish().ok());
  return file;
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

TEST(XlsxSheetFeatures, AutofilterHasItsRangeAndTheHiddenFilterDatabaseName) {
  const std::string file = FeatureWorkbook();
  const std::string sheet = Member(file, "xl/worksheets/sheet1.xml");
  EXPECT_TRUE(Has(sheet, "</sheetData><autoFilter ref=\"A1:B4\"/><pageMargins ")) << sheet;
  EXPECT_TRUE(Has(Member(file, "xl/workbook.xml"),
                  "</sheets><definedNames><definedName name=\"_xlnm._FilterDatabase\" localSheetId=\"0\" "
                  "hidden=\"1\">data!$A$1:$B$4</definedName></definedNames></workbook>"));
  // The sheet without a filter has neither.
  EXPECT_FALSE(Has(Member(file, "xl/worksheets/sheet2.xml"), "autoFilter"));
}

TEST(XlsxSheetFeatures, RowStyleMarksTheWholeRowAndCustomStylesFollowTheBuiltInOnes) {
  const std::string file = FeatureWorkbook();
  const std::string sheet = Member(file, "xl/worksheets/sheet1.xml");
  EXPECT_TRUE(Has(sheet, "<row r=\"3\" s=\"3\" customFormat=\"1\"><c s=\"3\" t=\"inlineStr\"><is><t>r1</t></is></c>"
                         "<c s=\"3\"/></row>")) << sheet;
  EXPECT_TRUE(Has(sheet, "<row r=\"2\"><c t=\"inlineStr\"><is><t>r0</t></is></c><c><v>0</v></c></row>"));
  const std::string styles = Member(file, "xl/styles.xml");
  EXPECT_TRUE(Has(styles, "<fonts count=\"4\">")) << styles;
  EXPECT_TRUE(Has(styles, "<font><u/><sz val=\"11\"/><color rgb=\"FF0563C1\"/><name val=\"Calibri\"/>"
                          "<family val=\"2\"/></font></fonts>"));
  EXPECT_TRUE(Has(styles, "<fills count=\"4\">"));
  EXPECT_TRUE(Has(styles, "<fill><patternFill patternType=\"solid\"><fgColor rgb=\"FFFF0000\"/><bgColor indexed=\"64\"/>"
                          "</patternFill></fill></fills>"));
  EXPECT_TRUE(Has(styles, "<cellXfs count=\"6\">"));
  EXPECT_TRUE(Has(styles, "<xf numFmtId=\"0\" fontId=\"0\" fillId=\"3\" borderId=\"0\" xfId=\"0\" applyFill=\"1\"/>"
                          "<xf numFmtId=\"0\" fontId=\"3\" fillId=\"0\" borderId=\"0\" xfId=\"0\" applyFont=\"1\"/>"
                          "<xf numFmtId=\"10\" fontId=\"1\" fillId=\"0\" borderId=\"0\" xfId=\"0\" "
                          "applyNumberFormat=\"1\" applyFont=\"1\"/></cellXfs>"));
}

TEST(XlsxSheetFeatures, HeaderlessSheetHasNoPaneAndKeepsDefaultWidthsForZero) {
  const std::string sheet = Member(FeatureWorkbook(), "xl/worksheets/sheet2.xml");
  EXPECT_TRUE(Has(sheet, "<dimension ref=\"A1:B3\"/><sheetViews><sheetView workbookViewId=\"0\"/></sheetViews>")) << sheet;
  EXPECT_TRUE(Has(sheet, "<cols><col min=\"1\" max=\"1\" width=\"14.7109375\" customWidth=\"1\"/>"
                         "<col min=\"2\" max=\"2\" width=\"9.140625\" style=\"5\"/></cols>"));
  EXPECT_TRUE(Has(sheet, "<sheetData><row r=\"1\"><c s=\"4\" t=\"inlineStr\"><is><t>r0</t></is></c>"));
}

TEST(XlsxSheetFeatures, InternalHyperlinkHasLocationAndEscapedDisplay) {
  const std::string sheet = Member(FeatureWorkbook(), "xl/worksheets/sheet2.xml");
  EXPECT_TRUE(Has(sheet, "</sheetData><hyperlinks><hyperlink ref=\"A1\" location=\"'data'!A3\" "
                         "display=\"r1 &amp; &lt;more&gt;\"/></hyperlinks><pageMargins ")) << sheet;
}

TEST(XlsxSheetFeatures, ChartPartsAreLinkedFromSheetToDrawingToChart) {
  const std::string file = FeatureWorkbook();
  EXPECT_TRUE(Has(Member(file, "xl/worksheets/sheet2.xml"),
                  "footer=\"0.3\"/><drawing r:id=\"rId1\"/></worksheet>"));
  EXPECT_EQ(Member(file, "xl/worksheets/_rels/sheet2.xml.rels"),
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
            "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
            "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
            "drawing\" Target=\"../drawings/drawing1.xml\"/></Relationships>");
  EXPECT_EQ(Member(file, "xl/drawings/_rels/drawing1.xml.rels"),
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
            "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
            "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
            "chart\" Target=\"../charts/chart1.xml\"/></Relationships>");
  const std::string drawing = Member(file, "xl/drawings/drawing1.xml");
  // D2 to S23 plus 12 pixels: 960 × 432 pixels over default cells, as libxlsxwriter anchors it.
  EXPECT_TRUE(Has(drawing, "<xdr:from><xdr:col>3</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row>"
                           "<xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>18</xdr:col><xdr:colOff>0</xdr:colOff>"
                           "<xdr:row>22</xdr:row><xdr:rowOff>114300</xdr:rowOff></xdr:to>")) << drawing;
  EXPECT_TRUE(Has(drawing, "<c:chart xmlns:c=\"http://schemas.openxmlformats.org/drawingml/2006/chart\" "
                           "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\" r:id=\"rId1\"/>"));
  const std::string chart = Member(file, "xl/charts/chart1.xml");
  EXPECT_TRUE(Has(chart, "<c:lineChart><c:grouping val=\"standard\"/><c:ser><c:idx val=\"0\"/><c:order val=\"0\"/>"
                         "<c:tx><c:v>value</c:v></c:tx><c:marker><c:symbol val=\"none\"/></c:marker>"
                         "<c:cat><c:numRef><c:f>'my plot'!$A$1:$A$3</c:f></c:numRef></c:cat>"
                         "<c:val><c:numRef><c:f>'my plot'!$B$1:$B$3</c:f></c:numRef></c:val></c:ser>")) << chart;
  EXPECT_TRUE(Has(chart, "<a:t>value along the rows</a:t>"));
  EXPECT_TRUE(Has(chart, "<c:catAx><c:axId val=\"50010001\"/>"));
  EXPECT_TRUE(Has(chart, "<a:bodyPr rot=\"-5400000\" vert=\"horz\"/>"));  // the value axis title, vertical
  const std::string types = Member(file, "[Content_Types].xml");
  EXPECT_TRUE(Has(types, "<Override PartName=\"/xl/charts/chart1.xml\" "
                         "ContentType=\"application/vnd.openxmlformats-officedocument.drawingml.chart+xml\"/>"
                         "<Override PartName=\"/xl/drawings/drawing1.xml\" "
                         "ContentType=\"application/vnd.openxmlformats-officedocument.drawing+xml\"/></Types>")) << types;
}

TEST(XlsxSheetFeatures, WorkbookWithFeaturesReadsBack) {
  const std::string file = FeatureWorkbook();
  auto rows = ReadXlsxSheetRows(AsBytes(file), "f.xlsx", 0);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 4u);
  EXPECT_EQ((*rows)[1][1].number, 0);
  EXPECT_EQ((*rows)[2][0].text, "r1");
  EXPECT_EQ((*rows)[3][1].number, 0.5);
}

// A workbook of one sheet "s" with the one column "a" and no rows, laid out as `layout` adds; the
// status is WriteSheet's, and the workbook is finished only when that succeeds.
Status WriteOneColumnSheet(XlsxSheetLayout layout, std::string* file) {
  XlsxStreamWriter writer([file](std::string_view b) { file->append(b); return Status::Ok(); }, "s.xlsx");
  MSP_RETURN_IF_ERROR(writer.Begin(std::vector<std::string>{"s"}));
  layout.name = "s";
  layout.header = {"a"};
  MSP_RETURN_IF_ERROR(writer.WriteSheet(layout, [](uint64_t, uint64_t, XlsxRowXml*) {}));
  return writer.Finish();
}

TEST(XlsxSheetFeatures, PlainWorkbookStylesAreTheMergeWorkbooksBytes) {
  std::string file;
  ASSERT_TRUE(WriteOneColumnSheet({}, &file).ok());
  const std::string styles = Member(file, "xl/styles.xml");
  EXPECT_TRUE(Has(styles, "<fonts count=\"3\">"));
  EXPECT_TRUE(Has(styles, "<fills count=\"3\">"));
  EXPECT_TRUE(Has(styles, "<cellXfs count=\"3\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\" "
                          "xfId=\"0\"/><xf numFmtId=\"0\" fontId=\"1\" fillId=\"0\" borderId=\"1\" xfId=\"0\" "
                          "applyFont=\"1\" applyBorder=\"1\" applyAlignment=\"1\"><alignment horizontal=\"center\"/>"
                          "</xf><xf numFmtId=\"0\" fontId=\"2\" fillId=\"2\" borderId=\"0\" xfId=\"0\" applyFont=\"1\" "
                          "applyFill=\"1\"/></cellXfs>"));
  EXPECT_FALSE(Has(Member(file, "xl/workbook.xml"), "definedNames"));
}

TEST(XlsxSheetFeatures, SheetRefsQuoteWhatExcelWouldNotReadAsAName) {
  EXPECT_EQ(XlsxSheetRef("summary"), "summary");
  EXPECT_EQ(XlsxSheetRef("part_0"), "part_0");
  EXPECT_EQ(XlsxSheetRef("Sheet1"), "Sheet1");
  EXPECT_EQ(XlsxSheetRef("AB12"), "'AB12'");  // a cell reference
  EXPECT_EQ(XlsxSheetRef("1st"), "'1st'");
  EXPECT_EQ(XlsxSheetRef("my plot"), "'my plot'");
  EXPECT_EQ(XlsxSheetRef("it's"), "'it''s'");
  EXPECT_EQ(XlsxRangeRef("summary", 4, 2, 53), "summary!$E$2:$E$53");
}

TEST(XlsxSheetFeatures, UnplannedChartIsAnError) {
  std::string file;
  XlsxSheetLayout layout;
  layout.chart = XlsxLineChart{};
  EXPECT_STATUS(WriteOneColumnSheet(layout, &file), Code::kInternal, "its chart was not planned so");
}

}  // namespace
}  // namespace msprobe::compare
