// The small parts of the package XlsxStreamWriter writes (xlsx_stream_writer.h), each whole: content
// types, relationships, workbook, styles, and a line chart with its drawing. Modelled on what
// libxlsxwriter writes for the same features (ECMA-376 Part 1: SpreadsheetML §18, DrawingML charts
// §21.2), without the parts Excel does not need (theme, docProps).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/compare/xlsx/xlsx_stream_writer.h"

namespace msprobe::compare::internal {

inline constexpr std::string_view kXmlDeclaration =
    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";
inline constexpr std::string_view kMainNs = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
inline constexpr std::string_view kRelNs = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
inline constexpr std::string_view kPackageRelNs = "http://schemas.openxmlformats.org/package/2006/relationships";

// Appends `text` as an attribute value: entities, and control characters (which XML 1.0 cannot
// carry, even escaped) as spaces.
void AppendXmlAttribute(std::string_view text, std::string* out);

// [Content_Types].xml: worksheets sheet1..N, and drawingK/chartK for the K-th planned chart.
std::string XlsxContentTypes(const std::vector<XlsxSheetPlan>& sheets);
std::string XlsxRootRels();
// xl/workbook.xml: the sheets and, per autofiltered sheet, its _xlnm._FilterDatabase name.
std::string XlsxWorkbook(const std::vector<XlsxSheetPlan>& sheets);
std::string XlsxWorkbookRels(size_t sheets);
// xl/styles.xml with the built-in styles and `custom` after them.
std::string XlsxStyles(const std::vector<XlsxCellStyle>& custom);

// xl/worksheets/_rels/sheetN.xml.rels of a sheet whose drawing is drawingK (as rId1).
std::string XlsxSheetDrawingRels(size_t drawing);
// xl/drawings/drawingK.xml: the chart anchored over cells, and its relationships to chartK.
std::string XlsxDrawing(const XlsxLineChart& chart);
std::string XlsxDrawingRels(size_t chart);
// xl/charts/chartK.xml.
std::string XlsxChart(const XlsxLineChart& chart);

}  // namespace msprobe::compare::internal
