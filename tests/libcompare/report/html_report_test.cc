// The HTML report's data: the columnar encoding of ReportPart, what the page receives (read back from
// the written page), escaping of names from user dumps, and the module tree from construct.json.
#include "msprobe/compare/report/html_report.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

#include "report/anomaly_file_internal.h"
#include "report/run_html_internal.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

using nlohmann::json;
using testing::TempDir;

ResultRow Row(const std::string& api, const std::string& suffix, Verdict verdict, std::vector<Cell> metrics) {
  ResultRow row;
  row.api = api;
  row.target_name = row.golden_name = api + suffix;
  row.target_dtype = "torch.float32";
  row.target_shape = "[2, 3]";
  row.result = verdict;
  row.metrics = std::move(metrics);
  return row;
}

std::vector<Cell> Stats(const std::string& norm_rel) {
  std::vector<Cell> cells(8, Cell::Float(0.5));
  cells[kNormRel] = Cell::Text(norm_rel);
  return cells;
}

// The page's data object, read back from the written file.
json PageData(const std::string& page) {
  const std::string open = "<script id=\"report-data\" type=\"application/json\">";
  const size_t begin = page.find(open) + open.size();
  return json::parse(page.substr(begin, page.find("</script>", begin) - begin));
}

TEST(ReportPartTest, KeepsColumnsCompactly) {
  ReportPart part("rank0", CompareMode::kSummary, "");
  part.AddRow(Row("Functional.linear.0.forward", ".input.0", Verdict::kPass, Stats("12.5%")));
  part.AddRow(Row("Functional.linear.0.forward", ".output.0", Verdict::kError, Stats("N/A")));
  ResultRow unmatched = Row("Functional.relu.0.forward", ".input.0", Verdict::kWarning, Stats("inf"));
  unmatched.golden_name = "N/A";
  part.AddRow(unmatched);
  ResultRow renamed = Row("Tensor.add.0.forward", "", Verdict::kPass, Stats("0%"));
  renamed.target_name = "Mapped.name.output.0";  // not under its API's name
  renamed.golden_name = renamed.target_name;
  part.AddRow(renamed);

  ASSERT_EQ(part.rows(), 4u);
  EXPECT_EQ(part.apis(), (std::vector<std::string>{"Functional.linear.0.forward", "Functional.relu.0.forward",
                                                   "Tensor.add.0.forward"}));
  EXPECT_EQ(part.api_of_row(), (std::vector<uint32_t>{0, 0, 1, 2}));
  const auto& s = part.strings().strings();
  EXPECT_EQ(s[part.tails()[1]], ".output.0");
  EXPECT_EQ(part.whole_names(), (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(s[part.tails()[3]], "Mapped.name.output.0");
  // One string for the dtype every row shares.
  EXPECT_EQ(part.dtypes(), (std::vector<uint32_t>(4, part.dtypes()[0])));
  ASSERT_EQ(part.golden_names().size(), 1u);
  EXPECT_EQ(part.golden_names()[0].first, 2u);
  EXPECT_EQ(s[part.golden_names()[0].second], "N/A");
  EXPECT_EQ(part.verdicts(), (std::vector<uint8_t>{0, 2, 1, 0}));
  // |NormRelativeErr| as a fraction; "inf" (golden value 0) is infinite; "N/A" has none.
  EXPECT_DOUBLE_EQ(part.main_metric()[0], 0.125);
  EXPECT_TRUE(std::isnan(part.main_metric()[1]));
  EXPECT_TRUE(std::isinf(part.main_metric()[2]));
  const ReportMetricColumn& norm_rel = part.metrics()[kNormRel];
  EXPECT_EQ(norm_rel.name, "NormRelativeErr") << "the csv's header";
  EXPECT_TRUE(norm_rel.percent);
  EXPECT_DOUBLE_EQ(norm_rel.values[0], 12.5);
  ASSERT_EQ(norm_rel.texts.size(), 2u);  // "N/A" and "inf" stay texts
  EXPECT_EQ(s[norm_rel.texts[0].second], "N/A");
  EXPECT_EQ(s[norm_rel.texts[1].second], "inf");
}

TEST(ReportPartTest, TensorModeChartsOneMinusCosine) {
  ReportPart part("", CompareMode::kTensor, "");
  std::vector<Cell> metrics(6, Cell::Float(0.0));
  metrics[kCosine] = Cell::Float(0.999);
  part.AddRow(Row("Functional.gelu.0.forward", ".output.0", Verdict::kPass, metrics));
  metrics[kCosine] = Cell::Unsupported();
  part.AddRow(Row("Functional.gelu.0.forward", ".input.0", Verdict::kPass, metrics));
  EXPECT_NEAR(part.main_metric()[0], 0.001, 1e-12);
  EXPECT_TRUE(std::isnan(part.main_metric()[1]));
  EXPECT_EQ(part.metrics()[kCosine].name, "Cosine");
}

TEST(HtmlReportTest, PageIsSelfContainedAndCarriesTheColumns) {
  TempDir dir;
  testing::WriteFile(dir.Path("construct.json"),
                     R"({"Functional.linear.0.forward": "Module.fc.Linear.forward.0",
                         "Module.fc.Linear.forward.0": "Module.net.Net.forward.0",
                         "Module.net.Net.forward.0": null, "Functional.relu.0.forward": null})");
  ResultTable table;
  table.mode = CompareMode::kSummary;
  table.rows = {Row("Functional.linear.0.forward", ".input.0", Verdict::kPass, Stats("1%")),
                Row("Functional.relu.0.forward", ".output.0", Verdict::kError, Stats("300%"))};
  HtmlReportMeta meta;
  meta.title = "npu vs bench";
  meta.first_diff = ReportRowLink{0, 1};
  ASSERT_TRUE(WriteHtmlReport(dir.Path("r.html"), table, dir.Path("construct.json"), meta).ok());
  const std::string page = testing::ReadFile(dir.Path("r.html"));
  EXPECT_NE(page.find("Content-Security-Policy"), std::string::npos);
  EXPECT_NE(page.find("echarts"), std::string::npos) << "the library is inline";
  EXPECT_EQ(page.find("<script src"), std::string::npos);

  const json data = PageData(page);
  EXPECT_EQ(data["mode"], "SUMMARY");
  EXPECT_EQ(data["mainMetric"], "|NormRelativeErr|");
  EXPECT_EQ(data["firstDiff"], json::array({0, 1}));
  EXPECT_TRUE(data["firstCause"].is_null());
  EXPECT_TRUE(data["anomalies"].is_null());
  const json& part = data["parts"][0];
  EXPECT_EQ(part["verdict"], json::array({0, 2}));
  EXPECT_EQ(part["main"], json::array({0.01, 3}));  // numbers as numbers
  EXPECT_EQ(part["metrics"][kMaxDiff]["values"], json::array({0.5, 0.5}));
  // The tree: the two APIs first, then the modules above the first, each linked to its parent.
  const json& tree = part["tree"];
  EXPECT_EQ(tree["names"], json::array({"Functional.linear.0.forward", "Functional.relu.0.forward",
                                        "Module.fc.Linear.forward.0", "Module.net.Net.forward.0"}));
  EXPECT_EQ(tree["parents"], json::array({2, -1, 3, -1}));
  EXPECT_EQ(tree["note"], "");
}

TEST(HtmlReportTest, NamesFromDumpsCannotEndTheScript) {
  TempDir dir;
  const std::string hostile = "Functional.x</script><script>alert(1)</script><!--\"'&\xE2\x80\xA8.0.forward";
  ResultTable table;
  table.mode = CompareMode::kMd5;
  table.rows = {Row(hostile, ".input.0", Verdict::kError, {Cell::Text("</script>"), Cell::Text("b")})};
  HtmlReportMeta meta;
  meta.title = "<b>title</b>";
  ASSERT_TRUE(WriteHtmlReport(dir.Path("r.html"), table, "", meta).ok());
  const std::string page = testing::ReadFile(dir.Path("r.html"));
  EXPECT_EQ(page.find("alert(1)</script>"), std::string::npos);
  EXPECT_EQ(page.find("<b>title"), std::string::npos);
  EXPECT_NE(page.find("&lt;b&gt;title"), std::string::npos);
  EXPECT_EQ(page.find("\xE2\x80\xA8"), std::string::npos) << "U+2028 escaped";
  const json data = PageData(page);
  const json& part = data["parts"][0];
  EXPECT_EQ(part["tree"]["names"][0], hostile) << "read back unchanged";
  EXPECT_EQ(part["strings"][part["metrics"][0]["texts"][0].get<int>()], "</script>");
  EXPECT_EQ(data["mainMetric"], "") << "md5 mode has no metric";
  EXPECT_TRUE(part["main"][0].is_null());
}

TEST(HtmlReportTest, BadConstructJsonLeavesTheTreeFlatWithANote) {
  TempDir dir;
  ResultTable table;
  table.mode = CompareMode::kSummary;
  table.rows = {Row("Functional.a.0.forward", ".input.0", Verdict::kPass, Stats("1%")),
                Row("Functional.b.0.forward", ".input.0", Verdict::kPass, Stats("1%"))};
  const auto tree_of = [&](const std::string& construct) {
    testing::WriteFile(dir.Path("construct.json"), construct);
    EXPECT_TRUE(WriteHtmlReport(dir.Path("r.html"), table, dir.Path("construct.json"), {}).ok());
    return PageData(testing::ReadFile(dir.Path("r.html")))["parts"][0]["tree"];
  };
  for (const std::string bad : {"{\"Functional.a.0.forward\": ", "[1, 2]", "{\"Functional.a.0.forward\": 3}"}) {
    const json tree = tree_of(bad);
    EXPECT_EQ(tree["parents"], json::array({-1, -1})) << bad;
    EXPECT_NE(tree["note"].get<std::string>().find("listed flat"), std::string::npos) << bad;
  }
  // A cycle (a hostile file) is cut, never followed.
  const json cyclic = tree_of(R"({"Functional.a.0.forward": "Functional.b.0.forward",
                                  "Functional.b.0.forward": "Functional.a.0.forward"})");
  EXPECT_EQ(cyclic["parents"], json::array({1, -1}));
  EXPECT_EQ(cyclic["note"], "");
  ASSERT_TRUE(WriteHtmlReport(dir.Path("r.html"), table, dir.Path("absent.json"), {}).ok());
  EXPECT_NE(PageData(testing::ReadFile(dir.Path("r.html")))["parts"][0]["tree"]["note"].get<std::string>().find(
                "no construct.json"),
            std::string::npos);
}

TEST(HtmlReportTest, NumbersKeepSixSignificantDigits) {
  TempDir dir;
  const std::vector<double> values = {0.5, -12.5, 0.00123456789, 123456789.0, 9.999996, 1e-300, 4.9e-324, 1.7e308,
                                      -0.999999, 1.0, 100.0, 0.1 + 0.2};
  ResultTable table;
  table.mode = CompareMode::kSummary;
  for (double v : values) table.rows.push_back(Row("Functional.a.0.forward", ".input.0", Verdict::kPass, {Cell::Float(v)}));
  ASSERT_TRUE(WriteHtmlReport(dir.Path("r.html"), table, "", {}).ok());
  const std::string page = testing::ReadFile(dir.Path("r.html"));
  const json shown = PageData(page)["parts"][0]["metrics"][kMaxDiff]["values"];
  ASSERT_EQ(shown.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_NEAR(shown[i].get<double>(), values[i], std::abs(values[i]) * 5e-6) << i;
  }
  EXPECT_EQ(shown[0].dump(), "0.5");
  EXPECT_NE(page.find("[5e-1,-125e-1,"), std::string::npos) << "mantissa and exponent, shortest";
  EXPECT_NE(page.find(",1,1e2,3e-1]"), std::string::npos) << "0.1 + 0.2 rounds to 0.3";
}

// overflow_check's newest analyze file in the output directory: its anomalies on the page.
TEST(HtmlReportTest, AnomaliesOfTheNewestAnalyzeFile) {
  TempDir dir;
  testing::WriteFile(dir.Path("anomaly_analyze_100.json"), R"({"rank_3": [{"op_name": "Old.op.0.forward"}]})");
  testing::WriteFile(dir.Path("anomaly_analyze_2000.json"),
                     R"({"rank_1": [{"op_name": "Tensor.__mul__.0.forward", "data_info": {"output": [{"Max": NaN}]}}],
                         "rank_0": [{"op_name": "Functional.linear.0.forward"}]})");
  testing::WriteFile(dir.Path("anomaly_analyze_x.json"), "not json");
  const auto found = internal::FindAnomalyFile(dir.Path(""));
  ASSERT_TRUE(found);
  EXPECT_EQ(found->name, "anomaly_analyze_2000.json");
  ASSERT_EQ(found->anomalies.size(), 2u);
  EXPECT_EQ(found->anomalies[0].rank, 1);
  EXPECT_EQ(found->anomalies[1].op_name, "Functional.linear.0.forward");

  CompareReport report;
  HtmlReport html;
  ReportPart part("rank0", CompareMode::kSummary, "");
  part.AddRow(Row("Functional.linear.0.forward", ".output.0", Verdict::kPass, Stats("1%")));
  html.AddPart(std::move(part));
  const Result<std::string> page = internal::WriteRunHtml(dir.Path(""), "t", report, html);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  const json data = PageData(testing::ReadFile(*page));
  EXPECT_EQ(data["anomalies"]["file"], "anomaly_analyze_2000.json");
  EXPECT_EQ(data["anomalies"]["nodes"], json::parse(R"([[1, "Tensor.__mul__.0.forward"], [0, "Functional.linear.0.forward"]])"));
  testing::WriteFile(dir.Path("anomaly_analyze_3000.json"), R"({"rank_x": []})");
  EXPECT_FALSE(internal::FindAnomalyFile(dir.Path("")));  // the newest is not one: none
}

}  // namespace
}  // namespace msprobe::compare
