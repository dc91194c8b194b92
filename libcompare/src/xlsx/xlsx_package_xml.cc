#include "xlsx/xlsx_package_xml_internal.h"

#include <fmt/format.h>

#include <algorithm>

namespace msprobe::compare::internal {
namespace {

constexpr std::string_view kFontRegular =
    "<font><sz val=\"11\"/><color rgb=\"FF000000\"/><name val=\"Calibri\"/><family val=\"2\"/></font>";
constexpr std::string_view kFontBold =
    "<font><b/><sz val=\"11\"/><color rgb=\"FF000000\"/><name val=\"Calibri\"/><family val=\"2\"/></font>";
constexpr std::string_view kFontOutlier =
    "<font><sz val=\"11\"/><color rgb=\"FF9C0006\"/><name val=\"Calibri\"/><family val=\"2\"/></font>";
// Excel's Hyperlink cell style colour (theme colour 10 of the default theme, which we do not write).
constexpr std::string_view kFontHyperlink =
    "<font><u/><sz val=\"11\"/><color rgb=\"FF0563C1\"/><name val=\"Calibri\"/><family val=\"2\"/></font>";
constexpr uint32_t kFontIdBold = 1, kFontIdHyperlink = 3;
constexpr uint32_t kBuiltinFills = 3;  // none, gray125 (both required by Excel), the outlier fill

constexpr std::string_view kBuiltinFillsXml =
    "<fill><patternFill patternType=\"none\"/></fill>"
    "<fill><patternFill patternType=\"gray125\"/></fill>"
    "<fill><patternFill patternType=\"solid\"><fgColor rgb=\"FFFFC7CE\"/><bgColor indexed=\"64\"/></patternFill></fill>";
constexpr std::string_view kBordersAndStyleXfs =
    "<borders count=\"2\">"
    "<border><left/><right/><top/><bottom/><diagonal/></border>"
    "<border><left style=\"thin\"><color auto=\"1\"/></left><right style=\"thin\"><color auto=\"1\"/></right>"
    "<top style=\"thin\"><color auto=\"1\"/></top><bottom style=\"thin\"><color auto=\"1\"/></bottom><diagonal/></border>"
    "</borders>"
    "<cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\"/></cellStyleXfs>";
constexpr std::string_view kBuiltinXfs =
    "<xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\"/>"
    "<xf numFmtId=\"0\" fontId=\"1\" fillId=\"0\" borderId=\"1\" xfId=\"0\" applyFont=\"1\" applyBorder=\"1\" "
    "applyAlignment=\"1\"><alignment horizontal=\"center\"/></xf>"
    "<xf numFmtId=\"0\" fontId=\"2\" fillId=\"2\" borderId=\"0\" xfId=\"0\" applyFont=\"1\" applyFill=\"1\"/>";
constexpr std::string_view kStylesTail =
    "<cellStyles count=\"1\"><cellStyle name=\"Normal\" xfId=\"0\" builtinId=\"0\"/></cellStyles>"
    "<dxfs count=\"0\"/><tableStyles count=\"0\" defaultTableStyle=\"TableStyleMedium9\" "
    "defaultPivotStyle=\"PivotStyleLight16\"/>"
    "</styleSheet>";

// A chart title or axis title as rich text; `rotated` for the vertical axis.
std::string RichTitle(std::string_view text, bool rotated) {
  std::string x = fmt::format("<c:title><c:tx><c:rich><a:bodyPr{}/><a:lstStyle/><a:p><a:pPr><a:defRPr/></a:pPr>"
                              "<a:r><a:rPr lang=\"en-US\"/><a:t>",
                              rotated ? " rot=\"-5400000\" vert=\"horz\"" : "");
  AppendXmlEscaped(text, false, &x);
  return x + "</a:t></a:r></a:p></c:rich></c:tx><c:layout/></c:title>";
}

std::string Escaped(std::string_view text) {
  std::string out;
  AppendXmlEscaped(text, false, &out);
  return out;
}

}  // namespace

void AppendXmlAttribute(std::string_view text, std::string* out) {
  size_t plain = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && static_cast<unsigned char>(text[i]) >= 0x20) continue;
    AppendXmlEscaped(text.substr(plain, i - plain), true, out);
    if (i < text.size()) out->push_back(' ');
    plain = i + 1;
  }
}

std::string XlsxContentTypes(const std::vector<XlsxSheetPlan>& sheets) {
  std::string x(kXmlDeclaration);
  x += "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
       "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
       "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
       "<Override PartName=\"/xl/workbook.xml\" "
       "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
       "<Override PartName=\"/xl/styles.xml\" "
       "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml\"/>";
  for (size_t i = 1; i <= sheets.size(); ++i) {
    x += fmt::format("<Override PartName=\"/xl/worksheets/sheet{}.xml\" "
                     "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>", i);
  }
  const auto charts = static_cast<size_t>(std::count_if(sheets.begin(), sheets.end(),
                                                        [](const XlsxSheetPlan& s) { return s.chart; }));
  for (size_t k = 1; k <= charts; ++k) {
    x += fmt::format("<Override PartName=\"/xl/charts/chart{}.xml\" "
                     "ContentType=\"application/vnd.openxmlformats-officedocument.drawingml.chart+xml\"/>"
                     "<Override PartName=\"/xl/drawings/drawing{}.xml\" "
                     "ContentType=\"application/vnd.openxmlformats-officedocument.drawing+xml\"/>", k, k);
  }
  return x + "</Types>";
}

std::string XlsxRootRels() {
  return fmt::format("{}<Relationships xmlns=\"{}\"><Relationship Id=\"rId1\" Type=\"{}/officeDocument\" "
                     "Target=\"xl/workbook.xml\"/></Relationships>", kXmlDeclaration, kPackageRelNs, kRelNs);
}

std::string XlsxWorkbook(const std::vector<XlsxSheetPlan>& sheets) {
  std::string x = fmt::format("{}<workbook xmlns=\"{}\" xmlns:r=\"{}\"><bookViews><workbookView/></bookViews><sheets>",
                              kXmlDeclaration, kMainNs, kRelNs);
  for (size_t i = 0; i < sheets.size(); ++i) {
    x += "<sheet name=\"";
    AppendXmlEscaped(sheets[i].name, true, &x);
    x += fmt::format("\" sheetId=\"{}\" r:id=\"rId{}\"/>", i + 1, i + 1);
  }
  x += "</sheets>";
  // Excel keeps an autofilter's range as this hidden name; without it the filter buttons still
  // show but Excel repairs the file on "Sort & Filter → Reapply".
  std::string names;
  for (size_t i = 0; i < sheets.size(); ++i) {
    const XlsxSheetPlan& s = sheets[i];
    if (s.filter_columns == 0) continue;
    names += fmt::format("<definedName name=\"_xlnm._FilterDatabase\" localSheetId=\"{}\" hidden=\"1\">", i);
    AppendXmlEscaped(fmt::format("{}!$A$1:${}${}", XlsxSheetRef(s.name), XlsxColumnName(s.filter_columns - 1),
                                 s.filter_rows + 1),
                     false, &names);
    names += "</definedName>";
  }
  if (!names.empty()) x += "<definedNames>" + names + "</definedNames>";
  return x + "</workbook>";
}

std::string XlsxWorkbookRels(size_t sheets) {
  std::string x = fmt::format("{}<Relationships xmlns=\"{}\">", kXmlDeclaration, kPackageRelNs);
  for (size_t i = 1; i <= sheets; ++i) {
    x += fmt::format("<Relationship Id=\"rId{}\" Type=\"{}/worksheet\" Target=\"worksheets/sheet{}.xml\"/>", i, kRelNs, i);
  }
  return x + fmt::format("<Relationship Id=\"rId{}\" Type=\"{}/styles\" Target=\"styles.xml\"/></Relationships>",
                         sheets + 1, kRelNs);
}

std::string XlsxStyles(const std::vector<XlsxCellStyle>& custom) {
  const bool hyperlink = std::any_of(custom.begin(), custom.end(), [](const XlsxCellStyle& s) { return s.hyperlink; });
  std::vector<uint32_t> fills;  // distinct custom fill colours, in order of first use
  for (const XlsxCellStyle& s : custom) {
    if (s.fill_rgb != 0 && std::find(fills.begin(), fills.end(), s.fill_rgb) == fills.end()) fills.push_back(s.fill_rgb);
  }
  std::string x(kXmlDeclaration);
  x += fmt::format("<styleSheet xmlns=\"{}\"><fonts count=\"{}\">", kMainNs, hyperlink ? 4 : 3);
  x += kFontRegular;
  x += kFontBold;
  x += kFontOutlier;
  if (hyperlink) x += kFontHyperlink;
  x += fmt::format("</fonts><fills count=\"{}\">", kBuiltinFills + fills.size());
  x += kBuiltinFillsXml;
  for (uint32_t rgb : fills) {
    x += fmt::format("<fill><patternFill patternType=\"solid\"><fgColor rgb=\"FF{:06X}\"/><bgColor indexed=\"64\"/>"
                     "</patternFill></fill>", rgb & 0xFFFFFF);
  }
  x += "</fills>";
  x += kBordersAndStyleXfs;
  x += fmt::format("<cellXfs count=\"{}\">", kXlsxFirstCustomStyle + custom.size());
  x += kBuiltinXfs;
  for (const XlsxCellStyle& s : custom) {
    const uint32_t font = s.hyperlink ? kFontIdHyperlink : s.bold ? kFontIdBold : 0;
    const auto fill = s.fill_rgb == 0 ? 0 : kBuiltinFills + static_cast<uint32_t>(
        std::find(fills.begin(), fills.end(), s.fill_rgb) - fills.begin());
    x += fmt::format("<xf numFmtId=\"{}\" fontId=\"{}\" fillId=\"{}\" borderId=\"0\" xfId=\"0\"{}{}{}/>",
                     s.number_format, font, fill, s.number_format ? " applyNumberFormat=\"1\"" : "",
                     font ? " applyFont=\"1\"" : "", fill ? " applyFill=\"1\"" : "");
  }
  x += "</cellXfs>";
  x += kStylesTail;
  return x;
}

std::string XlsxSheetDrawingRels(size_t drawing) {
  return fmt::format("{}<Relationships xmlns=\"{}\"><Relationship Id=\"rId1\" Type=\"{}/drawing\" "
                     "Target=\"../drawings/drawing{}.xml\"/></Relationships>", kXmlDeclaration, kPackageRelNs, kRelNs,
                     drawing);
}

std::string XlsxDrawing(const XlsxLineChart& chart) {
  // 960 × 432 pixels (libxlsxwriter's 480 × 288 scaled 2 × 1.5) over default cells of 64 × 20
  // pixels: 15 columns and 21.6 rows; 9525 EMU a pixel.
  constexpr uint32_t kColumns = 15, kRows = 21, kRowOffsetEmu = 12 * 9525;
  return fmt::format(
      "{}<xdr:wsDr xmlns:xdr=\"http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing\" "
      "xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\"><xdr:twoCellAnchor>"
      "<xdr:from><xdr:col>{}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>{}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>"
      "<xdr:to><xdr:col>{}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>{}</xdr:row><xdr:rowOff>{}</xdr:rowOff></xdr:to>"
      "<xdr:graphicFrame macro=\"\"><xdr:nvGraphicFramePr><xdr:cNvPr id=\"2\" name=\"Chart 1\"/><xdr:cNvGraphicFramePr/>"
      "</xdr:nvGraphicFramePr><xdr:xfrm><a:off x=\"0\" y=\"0\"/><a:ext cx=\"0\" cy=\"0\"/></xdr:xfrm><a:graphic>"
      "<a:graphicData uri=\"http://schemas.openxmlformats.org/drawingml/2006/chart\">"
      "<c:chart xmlns:c=\"http://schemas.openxmlformats.org/drawingml/2006/chart\" xmlns:r=\"{}\" r:id=\"rId1\"/>"
      "</a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>",
      kXmlDeclaration, chart.column, chart.row, chart.column + kColumns, chart.row + kRows, kRowOffsetEmu, kRelNs);
}

std::string XlsxDrawingRels(size_t chart) {
  return fmt::format("{}<Relationships xmlns=\"{}\"><Relationship Id=\"rId1\" Type=\"{}/chart\" "
                     "Target=\"../charts/chart{}.xml\"/></Relationships>", kXmlDeclaration, kPackageRelNs, kRelNs, chart);
}

std::string XlsxChart(const XlsxLineChart& chart) {
  // Axis ids only pair the axes within this chart.
  constexpr uint32_t kCategoryAxis = 50010001, kValueAxis = 50010002;
  std::string x(kXmlDeclaration);
  x += "<c:chartSpace xmlns:c=\"http://schemas.openxmlformats.org/drawingml/2006/chart\" "
       "xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" "
       "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">"
       "<c:lang val=\"en-US\"/><c:chart>";
  x += RichTitle(chart.title, false);
  // No c:numCache: Excel and LibreOffice read the values from the cells (libxlsxwriter writes none
  // either in constant-memory mode).
  x += fmt::format("<c:plotArea><c:layout/><c:lineChart><c:grouping val=\"standard\"/>"
                   "<c:ser><c:idx val=\"0\"/><c:order val=\"0\"/><c:tx><c:v>{}</c:v></c:tx>"
                   "<c:marker><c:symbol val=\"none\"/></c:marker>"
                   "<c:cat><c:numRef><c:f>{}</c:f></c:numRef></c:cat><c:val><c:numRef><c:f>{}</c:f></c:numRef></c:val>"
                   "</c:ser><c:marker val=\"1\"/><c:axId val=\"{}\"/><c:axId val=\"{}\"/></c:lineChart>",
                   Escaped(chart.series_name), Escaped(chart.categories), Escaped(chart.values), kCategoryAxis,
                   kValueAxis);
  x += fmt::format("<c:catAx><c:axId val=\"{}\"/><c:scaling><c:orientation val=\"minMax\"/></c:scaling>"
                   "<c:axPos val=\"b\"/>{}<c:numFmt formatCode=\"General\" sourceLinked=\"1\"/>"
                   "<c:tickLblPos val=\"nextTo\"/><c:crossAx val=\"{}\"/><c:crosses val=\"autoZero\"/>"
                   "<c:auto val=\"1\"/><c:lblAlgn val=\"ctr\"/><c:lblOffset val=\"100\"/></c:catAx>",
                   kCategoryAxis, RichTitle(chart.x_axis_title, false), kValueAxis);
  x += fmt::format("<c:valAx><c:axId val=\"{}\"/><c:scaling><c:orientation val=\"minMax\"/></c:scaling>"
                   "<c:axPos val=\"l\"/><c:majorGridlines/>{}<c:numFmt formatCode=\"General\" sourceLinked=\"1\"/>"
                   "<c:tickLblPos val=\"nextTo\"/><c:crossAx val=\"{}\"/><c:crosses val=\"autoZero\"/>"
                   "<c:crossBetween val=\"between\"/></c:valAx></c:plotArea>",
                   kValueAxis, RichTitle(chart.y_axis_title, true), kCategoryAxis);
  // No c:legend: one series, named by the title.
  x += "<c:plotVisOnly val=\"1\"/></c:chart><c:printSettings><c:headerFooter/><c:pageMargins b=\"0.75\" "
       "l=\"0.7\" r=\"0.7\" t=\"0.75\" header=\"0.3\" footer=\"0.3\"/><c:pageSetup/></c:printSettings></c:chartSpace>";
  return x;
}

}  // namespace msprobe::compare::internal
