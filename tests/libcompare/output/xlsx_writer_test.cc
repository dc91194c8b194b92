#include "msprobe/compare/output/xlsx_writer.h"

#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <regex>

#include <fmt/format.h>

#include "test_support.h"

namespace msprobe::compare {
namespace {

using testing::TempDir;

// One entry of a zip, through the unzip tool (tests only; the toolkit never shells out).
std::string Unzip(const std::string& zip, const std::string& entry) {
  const std::string cmd = "unzip -p '" + zip + "' '" + entry + "' 2>/dev/null";
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return {};
  std::string out;
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  ::pclose(p);
  return out;
}

std::string Attr(const std::string& element, const std::string& name);

// The <c ...>...</c> element of a sheet at `ref` ("I2"), or "". A cell without its own r="…" sits
// right of the previous one (ECMA-376 makes the reference optional; our writer leaves it out then).
std::string CellXml(const std::string& sheet, const std::string& ref) {
  const size_t split = ref.find_first_of("0123456789");
  auto column_of = [](const std::string& letters) {
    size_t col = 0;
    for (char c : letters) col = col * 26 + static_cast<size_t>(c - 'A' + 1);
    return col - 1;
  };
  const size_t want = column_of(ref.substr(0, split));
  const size_t row_at = sheet.find("<row r=\"" + ref.substr(split) + "\"");
  if (row_at == std::string::npos) return {};
  const size_t row_end = sheet.find("</row>", row_at);
  size_t col = 0;
  for (size_t at = sheet.find("<c", row_at); at < row_end; at = sheet.find("<c", at + 1)) {
    if (sheet[at + 2] != ' ' && sheet[at + 2] != '>' && sheet[at + 2] != '/') continue;
    const size_t tag_end = sheet.find('>', at);
    const size_t end = sheet[tag_end - 1] == '/' ? tag_end + 1 : sheet.find("</c>", at) + 4;
    const std::string element = sheet.substr(at, end - at);
    const std::string r = Attr(sheet.substr(at, tag_end + 1 - at), "r");
    if (!r.empty()) col = column_of(r.substr(0, r.find_first_of("0123456789")));
    if (col == want) return element;
    ++col;
  }
  return {};
}

std::string Attr(const std::string& element, const std::string& name) {
  const std::regex re(" " + name + "=\"([^\"]*)\"");
  std::smatch m;
  return std::regex_search(element, m, re) ? m[1].str() : std::string();
}

// The n-th (0-based) `tag` element inside the `section` element of styles.xml.
std::string NthElement(const std::string& xml, const std::string& section, const std::string& tag, size_t n) {
  const size_t begin = xml.find("<" + section);
  const size_t end = xml.find("</" + section + ">", begin);
  if (begin == std::string::npos || end == std::string::npos) return {};
  const std::string body = xml.substr(begin, end - begin);
  const std::regex re("<" + tag + "(?=[ />])[^>]*?(/>|>[\\s\\S]*?</" + tag + ">)");
  size_t i = 0;
  for (std::sregex_iterator it(body.begin(), body.end(), re), stop; it != stop; ++it, ++i) {
    if (i == n) return it->str();
  }
  return {};
}

// The fill colour of a cell's style, e.g. "FFFF0000", or "" without a fill.
std::string FillOf(const std::string& styles, const std::string& cell) {
  const std::string s = Attr(cell, "s");
  if (s.empty()) return {};
  const std::string xf = NthElement(styles, "cellXfs", "xf", std::stoul(s));
  const std::string fill_id = Attr(xf, "fillId");
  if (fill_id.empty()) return {};
  return Attr(NthElement(styles, "fills", "fill", std::stoul(fill_id)), "rgb");
}

bool IsNumberCell(const std::string& cell) {
  const std::string t = Attr(cell, "t");
  return (t.empty() || t == "n") && cell.find("<v>") != std::string::npos;
}

ResultRow Row(const std::string& name, Verdict result, std::vector<Cell> metrics) {
  ResultRow r;
  r.target_name = r.golden_name = name;
  r.target_dtype = r.golden_dtype = "torch.float32";
  r.target_shape = r.golden_shape = "[2]";
  r.target_requires_grad = r.golden_requires_grad = "False";
  r.metrics = std::move(metrics);
  r.target_stats = {Cell::Float(2.5), Cell::Int(-3), Cell::Float(0.25), Cell::Text("None")};
  r.golden_stats = {Cell::Float(2.5), Cell::Int(-3), Cell::Float(0.25), Cell::Text("None")};
  r.requires_grad_consistent = true;
  r.result = result;
  r.matched = true;
  return r;
}

std::vector<Cell> StatsDiffs(const std::string& norm_rel) {
  return {Cell::Float(0.5), Cell::Int(0), Cell::Float(std::numeric_limits<double>::infinity()), Cell::Float(1e-05),
          Cell::Text("1.5%"), Cell::Text("0"), Cell::Text("N/A"), Cell::Text(norm_rel)};
}

ResultTable StatsTable() {
  ResultTable t;
  t.mode = CompareMode::kSummary;
  t.with_stack = true;
  t.rows.push_back(Row("Functional.conv2d.0.forward.input.0", Verdict::kPass, StatsDiffs("12.3%")));
  t.rows.push_back(Row("Functional.conv2d.0.forward.output.0", Verdict::kError, StatsDiffs("=1+1")));
  t.rows.push_back(Row("Functional.relu.0.forward.input.0", Verdict::kWarning, StatsDiffs("0.5%")));
  t.rows.push_back(Row("Functional.relu.0.forward.output.0", Verdict::kError, StatsDiffs("inf")));
  return t;
}

TEST(XlsxWriterTest, WritesTypedCellsHighlightsAndSummary) {
  TempDir tmp;
  const std::string out = tmp.Path("compare_result.xlsx");
  auto written = WriteXlsx(out, StatsTable());
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(*written, std::vector<std::string>{out});

  const std::string workbook = Unzip(out, "xl/workbook.xml");
  const size_t sheet1 = workbook.find("name=\"Sheet1\"");
  const size_t summary = workbook.find("name=\"summary\"");
  ASSERT_NE(sheet1, std::string::npos) << workbook;
  ASSERT_NE(summary, std::string::npos) << workbook;
  EXPECT_LT(sheet1, summary);  // msprobe's merge reads the first sheet

  const std::string sheet = Unzip(out, "xl/worksheets/sheet1.xml");
  const std::string styles = Unzip(out, "xl/styles.xml");
  ASSERT_FALSE(sheet.empty());
  // Header: row 1, bold, frozen, autofiltered over the whole table (28 columns with the stack).
  EXPECT_NE(sheet.find("state=\"frozen\""), std::string::npos);
  EXPECT_NE(sheet.find("ySplit=\"1\""), std::string::npos);
  EXPECT_NE(sheet.find("<autoFilter ref=\"A1:AB5\"/>"), std::string::npos) << sheet.substr(0, 2000);
  EXPECT_NE(CellXml(sheet, "A1").find("NPU Name"), std::string::npos);
  EXPECT_NE(CellXml(sheet, "AB1").find("NPU_Stack_Info"), std::string::npos);
  const std::string header_xf = NthElement(styles, "cellXfs", "xf", std::stoul(Attr(CellXml(sheet, "A1"), "s")));
  const std::string header_font = NthElement(styles, "fonts", "font", std::stoul(Attr(header_xf, "fontId")));
  EXPECT_NE(header_font.find("<b/>"), std::string::npos) << header_font;
  EXPECT_NE(sheet.find("<col "), std::string::npos);  // column widths

  // Typed cells: numbers as numbers, the bool as an Excel boolean, texts as strings.
  EXPECT_TRUE(IsNumberCell(CellXml(sheet, "I2"))) << CellXml(sheet, "I2");  // Max diff 0.5
  EXPECT_NE(CellXml(sheet, "I2").find("<v>0.5</v>"), std::string::npos);
  EXPECT_TRUE(IsNumberCell(CellXml(sheet, "J2")));                             // int 0
  EXPECT_TRUE(IsNumberCell(CellXml(sheet, "L2")));                             // 1e-05
  EXPECT_TRUE(IsNumberCell(CellXml(sheet, "R2")));                             // NPU min -3
  EXPECT_NE(CellXml(sheet, "R2").find("<v>-3</v>"), std::string::npos);
  EXPECT_FALSE(IsNumberCell(CellXml(sheet, "K2")));                            // inf stays text
  EXPECT_NE(CellXml(sheet, "K2").find(">inf<"), std::string::npos);
  EXPECT_FALSE(IsNumberCell(CellXml(sheet, "M2")));                            // "1.5%" text as G3 has it
  EXPECT_EQ(Attr(CellXml(sheet, "Y2"), "t"), "b");
  EXPECT_NE(CellXml(sheet, "Y2").find("<v>1</v>"), std::string::npos);
  EXPECT_NE(CellXml(sheet, "Z3").find(">error<"), std::string::npos);
  EXPECT_NE(CellXml(sheet, "P3").find(">=1+1<"), std::string::npos);         // a string, never a formula
  EXPECT_EQ(CellXml(sheet, "P3").find("<f>"), std::string::npos);

  // Rows filled whole: red for error, yellow for warning, none for pass.
  EXPECT_EQ(FillOf(styles, CellXml(sheet, "A3")), "FFFF0000");
  EXPECT_EQ(FillOf(styles, CellXml(sheet, "I3")), "FFFF0000");
  EXPECT_EQ(FillOf(styles, CellXml(sheet, "Y3")), "FFFF0000");
  EXPECT_EQ(FillOf(styles, CellXml(sheet, "A4")), "FFFFFF00");
  EXPECT_EQ(FillOf(styles, CellXml(sheet, "A2")), "");
  const std::regex error_row("<row r=\"3\"[^>]*customFormat=\"1\"");
  EXPECT_TRUE(std::regex_search(sheet, error_row)) << "error row has no row format";

  // Summary: counts, first error (row 3 of Sheet1) as a link, chart data with "12.3%" as 0.123.
  const std::string sum = Unzip(out, "xl/worksheets/sheet2.xml");
  ASSERT_FALSE(sum.empty());
  EXPECT_NE(CellXml(sum, "B2").find("<v>1</v>"), std::string::npos);  // pass
  EXPECT_NE(CellXml(sum, "B3").find("<v>1</v>"), std::string::npos);  // warning
  EXPECT_NE(CellXml(sum, "B4").find("<v>2</v>"), std::string::npos);  // error
  EXPECT_NE(CellXml(sum, "B5").find("<v>4</v>"), std::string::npos);  // total
  EXPECT_NE(CellXml(sum, "B6").find("<v>0</v>"), std::string::npos);  // every row matched
  EXPECT_NE(CellXml(sum, "B10").find("Functional.conv2d.0.forward.output.0"), std::string::npos);
  EXPECT_NE(sum.find("<hyperlink ref=\"B10\" location=\"'Sheet1'!A3\""), std::string::npos);
  EXPECT_NE(CellXml(sum, "B12").find("<v>3</v>"), std::string::npos);
  EXPECT_NE(CellXml(sum, "E1").find("NormRelativeErr"), std::string::npos);
  EXPECT_NE(CellXml(sum, "E2").find("<v>0.123</v>"), std::string::npos) << CellXml(sum, "E2");
  EXPECT_TRUE(CellXml(sum, "E3").empty());  // "=1+1" is no number: a gap in the line
  EXPECT_NE(CellXml(sum, "E4").find("<v>0.005</v>"), std::string::npos);
  EXPECT_NE(CellXml(sum, "F2").find("<v>0.123</v>"), std::string::npos);  // plotted as it is
  EXPECT_TRUE(CellXml(sum, "G2").empty());  // not an error row
  const std::string chart = Unzip(out, "xl/charts/chart1.xml");
  EXPECT_NE(chart.find("<c:scatterChart>"), std::string::npos);
  EXPECT_NE(chart.find("<c:xVal><c:numRef><c:f>summary!$D$2:$D$5</c:f>"), std::string::npos) << chart.substr(0, 3000);
  EXPECT_NE(chart.find("<c:yVal><c:numRef><c:f>summary!$F$2:$F$5</c:f>"), std::string::npos);
  EXPECT_NE(chart.find("<c:yVal><c:numRef><c:f>summary!$G$2:$G$5</c:f>"), std::string::npos);
  EXPECT_NE(chart.find("<c:logBase val=\"10\"/>"), std::string::npos);
}

TEST(XlsxWriterTest, TensorModeChartsCosineAndMd5ModeHasNoChart) {
  TempDir tmp;
  ResultTable t;
  t.mode = CompareMode::kTensor;
  t.rows.push_back(Row("a.0.forward.input.0", Verdict::kPass, {Cell::Float(0.999), Cell::Float(0), Cell::Float(0),
                                                       Cell::Float(0), Cell::Float(1), Cell::Float(1)}));
  t.rows.push_back(Row("a.0.forward.input.1", Verdict::kPass, {Cell::Text("unsupported"), Cell::Text("unsupported"),
                                                       Cell::Text("unsupported"), Cell::Text("unsupported"),
                                                       Cell::Text("unsupported"), Cell::Text("unsupported")}));
  ASSERT_TRUE(WriteXlsx(tmp.Path("t.xlsx"), t).ok());
  const std::string sum = Unzip(tmp.Path("t.xlsx"), "xl/worksheets/sheet2.xml");
  EXPECT_NE(CellXml(sum, "E1").find("Cosine"), std::string::npos);
  EXPECT_NE(CellXml(sum, "E2").find("<v>0.999</v>"), std::string::npos);
  EXPECT_NE(CellXml(sum, "F1").find("1 - Cosine (plotted)"), std::string::npos);
  EXPECT_NE(CellXml(sum, "F2").find("<v>0.001000000000000001</v>"), std::string::npos) << CellXml(sum, "F2");
  EXPECT_TRUE(CellXml(sum, "E3").empty());
  EXPECT_TRUE(CellXml(sum, "F3").empty());
  EXPECT_NE(CellXml(sum, "B10").find("none"), std::string::npos);
  EXPECT_NE(Unzip(tmp.Path("t.xlsx"), "xl/charts/chart1.xml").find("summary!$F$2:$F$3"), std::string::npos);

  t.mode = CompareMode::kMd5;
  for (ResultRow& r : t.rows) r.metrics = {Cell::Text("1a2b3c4d"), Cell::Text("1a2b3c4d")};
  ASSERT_TRUE(WriteXlsx(tmp.Path("m.xlsx"), t).ok());
  EXPECT_FALSE(Unzip(tmp.Path("m.xlsx"), "xl/worksheets/sheet2.xml").empty());
  EXPECT_TRUE(Unzip(tmp.Path("m.xlsx"), "xl/charts/chart1.xml").empty());
}

// The rows not compared (docs/compare.md §5.4): a target row without a golden counterpart, a golden-only
// row (the kernel compare's), and what the stream is told the rows do not show.
TEST(XlsxWriterTest, SummaryCountsTheRowsNotCompared) {
  TempDir tmp;
  ResultTable t = StatsTable();
  t.rows[0].matched = false;
  t.rows[1].matched = false;
  t.rows[1].golden_only = true;
  Result<XlsxResultStream> stream = XlsxResultStream::Open(tmp.Path("n.xlsx"), t);
  ASSERT_TRUE(stream.ok());
  ASSERT_TRUE(stream->Append(t).ok());
  stream->NoteNotCompared(2, 3, 4);
  ASSERT_TRUE(std::move(*stream).Commit().ok());
  const std::string sum = Unzip(tmp.Path("n.xlsx"), "xl/worksheets/sheet2.xml");
  EXPECT_NE(CellXml(sum, "A6").find("not compared: no golden counterpart"), std::string::npos) << sum;
  EXPECT_NE(CellXml(sum, "B6").find("<v>3</v>"), std::string::npos);
  EXPECT_NE(CellXml(sum, "A7").find("golden rows matched by no target row"), std::string::npos);
  EXPECT_NE(CellXml(sum, "B7").find("<v>4</v>"), std::string::npos);
  EXPECT_NE(CellXml(sum, "A8").find("unreadable tensors"), std::string::npos);
  EXPECT_NE(CellXml(sum, "B8").find("<v>4</v>"), std::string::npos);
}

TEST(XlsxWriterTest, SplitsSheetsAsG3SaveExcel) {
  TempDir tmp;
  ResultTable t = StatsTable();
  t.rows.push_back(Row("Functional.gelu.0.forward.input.0", Verdict::kPass, StatsDiffs("1%")));  // 5 rows
  // 5 rows, at most 2 per sheet: ceil(5/2) = 3 sheets of ceil(5/3) = 2 rows.
  ASSERT_TRUE(WriteXlsx(tmp.Path("s.xlsx"), t, 2).ok());
  const std::string wb = Unzip(tmp.Path("s.xlsx"), "xl/workbook.xml");
  const size_t p0 = wb.find("name=\"part_0\""), p1 = wb.find("name=\"part_1\""), p2 = wb.find("name=\"part_2\"");
  const size_t sum = wb.find("name=\"summary\"");
  ASSERT_NE(p0, std::string::npos) << wb;
  ASSERT_NE(p2, std::string::npos) << wb;
  EXPECT_TRUE(p0 < p1 && p1 < p2 && p2 < sum);
  EXPECT_EQ(wb.find("name=\"Sheet1\""), std::string::npos);
  EXPECT_NE(Unzip(tmp.Path("s.xlsx"), "xl/worksheets/sheet1.xml").find("<autoFilter ref=\"A1:AB3\"/>"),
            std::string::npos);
  const std::string last = Unzip(tmp.Path("s.xlsx"), "xl/worksheets/sheet3.xml");
  EXPECT_NE(CellXml(last, "A2").find("Functional.gelu.0.forward.input.0"), std::string::npos);
  EXPECT_TRUE(CellXml(last, "A3").empty());
  // The first error (table row 2) sits in part_0, Excel row 3.
  const std::string summary = Unzip(tmp.Path("s.xlsx"), "xl/worksheets/sheet4.xml");
  EXPECT_NE(summary.find("location=\"'part_0'!A3\""), std::string::npos);

  // Exactly the limit already splits (G3 keeps one sheet only below it): 4 rows, limit 4.
  t.rows.pop_back();
  ASSERT_TRUE(WriteXlsx(tmp.Path("e.xlsx"), t, 4).ok());
  EXPECT_NE(Unzip(tmp.Path("e.xlsx"), "xl/workbook.xml").find("name=\"part_0\""), std::string::npos);
  ASSERT_TRUE(WriteXlsx(tmp.Path("f.xlsx"), t, 5).ok());
  EXPECT_NE(Unzip(tmp.Path("f.xlsx"), "xl/workbook.xml").find("name=\"Sheet1\""), std::string::npos);
}

// Past 32000 rows (Excel 2007's series limit) the chart takes buckets of rows and keeps each
// bucket's worst value, so one bad row still shows.
TEST(XlsxWriterTest, LongTablesAreChartedPerBucketKeepingTheWorst) {
  TempDir tmp;
  ResultTable t;
  t.mode = CompareMode::kTensor;
  const ResultRow good = Row("x", Verdict::kPass, {Cell::Float(1.0), Cell::Float(0), Cell::Float(0), Cell::Float(0),
                                           Cell::Float(1), Cell::Float(1)});
  t.rows.assign(64001, good);
  t.rows[40000].metrics[kCosine] = Cell::Float(0.5);
  t.rows[40000].result = Verdict::kError;
  ASSERT_TRUE(WriteXlsx(tmp.Path("long.xlsx"), t).ok());
  // 64001 rows in buckets of 3: 21334 points; table row 40001 falls in the bucket starting at 40000.
  const std::string sum = Unzip(tmp.Path("long.xlsx"), "xl/worksheets/sheet2.xml");
  EXPECT_NE(CellXml(sum, "D13335").find("<v>40000</v>"), std::string::npos) << CellXml(sum, "D13335");
  EXPECT_NE(CellXml(sum, "E13335").find("<v>0.5</v>"), std::string::npos) << CellXml(sum, "E13335");
  EXPECT_NE(CellXml(sum, "F13335").find("<v>0.5</v>"), std::string::npos);
  EXPECT_NE(CellXml(sum, "G13335").find("<v>0.5</v>"), std::string::npos);  // the error's bucket is marked
  EXPECT_NE(CellXml(sum, "E13336").find("<v>1</v>"), std::string::npos);
  EXPECT_NE(CellXml(sum, "F13336").find("<v>1E-10</v>"), std::string::npos);  // 1 - 1 on the log axis' floor
  EXPECT_TRUE(CellXml(sum, "G13336").empty());
  EXPECT_TRUE(CellXml(sum, "D21336").empty());
  EXPECT_NE(Unzip(tmp.Path("long.xlsx"), "xl/charts/chart1.xml").find("summary!$F$2:$F$21335"), std::string::npos);
}

// Our data sheet keeps msprobe's layout: its xlsx (openpyxl) has the same header cells in row 1.
TEST(XlsxWriterTest, HeaderMatchesMsprobeXlsx) {
  MSP_REQUIRE_SHARED(dir, "msprobe_samples/dist2/cmp_t");
  std::string sample;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".xlsx") sample = entry.path().string();
  }
  ASSERT_FALSE(sample.empty());
  const std::string theirs = Unzip(sample, "xl/worksheets/sheet1.xml");
  EXPECT_NE(Unzip(sample, "xl/workbook.xml").find("name=\"Sheet1\""), std::string::npos);

  ResultTable t;
  t.mode = CompareMode::kTensor;
  t.with_stack = true;
  TempDir tmp;
  ASSERT_TRUE(WriteXlsx(tmp.Path("h.xlsx"), t).ok());
  const std::string ours = Unzip(tmp.Path("h.xlsx"), "xl/worksheets/sheet1.xml");
  const std::regex text_re("<t[^>]*>([^<]*)</t>");
  auto header_texts = [&](const std::string& xml) {
    const size_t row1 = xml.find("<row r=\"1\"");
    const std::string row = xml.substr(row1, xml.find("</row>", row1) - row1);
    std::vector<std::string> texts;
    for (std::sregex_iterator it(row.begin(), row.end(), text_re), end; it != end; ++it) texts.push_back((*it)[1]);
    return texts;
  };
  const std::vector<std::string> want = header_texts(theirs);
  ASSERT_EQ(want.size(), 27u);
  EXPECT_EQ(header_texts(ours), want);
}

// The members of a zip, through unzip -Z1, each with its bytes; the creation time (docProps/core.xml)
// left out.
std::map<std::string, std::string> Members(const std::string& zip) {
  std::map<std::string, std::string> members;
  std::FILE* p = ::popen(("unzip -Z1 '" + zip + "' 2>/dev/null").c_str(), "r");
  if (!p) return members;
  char line[4096];
  while (std::fgets(line, sizeof line, p) != nullptr) {
    std::string name(line);
    while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) name.pop_back();
    if (name != "docProps/core.xml") members[name] = Unzip(zip, name);
  }
  ::pclose(p);
  return members;
}

// A table of `rows` rows whose verdicts and values vary.
ResultTable VariedTable(size_t rows) {
  ResultTable t = StatsTable();
  const std::vector<ResultRow> kinds = t.rows;
  t.rows.clear();
  for (size_t i = 0; i < rows; ++i) {
    ResultRow row = kinds[i % kinds.size()];
    row.target_name = fmt::format("{}.{}", row.target_name, i);
    row.metrics[kMaxDiff] = Cell::Float(static_cast<double>(i) / 7);
    t.rows.push_back(std::move(row));
  }
  return t;
}

// Appended in pieces and written as they come (a streamed compare's workbook, docs/compare.md
// §6.2), the workbook is the one written at once from the whole table, member by member, and also
// when the rows pass a sheet's size after its thread has begun writing them.
TEST(XlsxWriterTest, WritingAsRowsComeGivesTheSameWorkbook) {
  TempDir tmp;
  for (const size_t max_rows : {size_t{100000}, size_t{1500}}) {
    const ResultTable t = VariedTable(3000);
    ASSERT_TRUE(WriteXlsx(tmp.Path("whole.xlsx"), t, max_rows).ok());
    Result<XlsxResultStream> stream =
        XlsxResultStream::Open(tmp.Path("live.xlsx"), t, max_rows, XlsxSheetWriting::kAsRowsCome);
    ASSERT_TRUE(stream.ok());
    for (size_t first = 0; first < t.rows.size(); first += 700) {
      ResultTable piece = t;
      piece.rows.assign(t.rows.begin() + static_cast<std::ptrdiff_t>(first),
                        t.rows.begin() + static_cast<std::ptrdiff_t>(std::min(t.rows.size(), first + 700)));
      ASSERT_TRUE(stream->Append(piece).ok());
    }
    ASSERT_TRUE(std::move(*stream).Commit().ok());
    const std::map<std::string, std::string> whole = Members(tmp.Path("whole.xlsx"));
    ASSERT_TRUE(whole.count("xl/worksheets/sheet1.xml")) << max_rows;
    EXPECT_EQ(whole.count("xl/worksheets/sheet3.xml"), max_rows < 3000 ? 1u : 0u);
    EXPECT_TRUE(Members(tmp.Path("live.xlsx")) == whole) << max_rows;
  }
}

// A stream dropped before Commit (its compare failed) leaves nothing behind, its thread stopped.
TEST(XlsxWriterTest, StreamDroppedWhileWritingLeavesNothing) {
  TempDir tmp;
  {
    Result<XlsxResultStream> stream = XlsxResultStream::Open(tmp.Path("d.xlsx"), StatsTable(), kMaxExcelRows,
                                                             XlsxSheetWriting::kAsRowsCome);
    ASSERT_TRUE(stream.ok());
    ASSERT_TRUE(stream->Append(VariedTable(5000)).ok());
  }
  EXPECT_TRUE(std::filesystem::is_empty(tmp.root()));
}

TEST(XlsxWriterTest, FailureLeavesNoFileUnderTheFinalName) {
  TempDir tmp;
  EXPECT_STATUS(WriteXlsx(tmp.Path("no/such/out.xlsx"), StatsTable()), Code::kIOError, "cannot create");
  std::filesystem::create_directory(tmp.Path("taken.xlsx"));
  EXPECT_STATUS(WriteXlsx(tmp.Path("taken.xlsx"), StatsTable()), Code::kIOError, "rename");
  EXPECT_TRUE(std::filesystem::is_directory(tmp.Path("taken.xlsx")));
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(tmp.root())) ++entries;
  EXPECT_EQ(entries, 1u);  // no temporary file left behind
}

}  // namespace
}  // namespace msprobe::compare
