// The JUnit report: one testcase per API group, failures for rows at the failing level, XML escaping.
// The CLI test validates a whole report against tests/data/triage/junit.xsd with xmllint.
#include "msprobe/compare/output/junit_report.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace msprobe::compare {
namespace {

ResultRow Row(const std::string& api, const std::string& name, Verdict result,
              std::vector<std::string> messages = {}) {
  ResultRow r;
  r.api = api;
  r.target_name = name;
  r.result = result;
  r.err_messages = std::move(messages);
  return r;
}

ResultTable Table() {
  ResultTable table;
  table.rows = {Row("Torch.add.0.forward", "Torch.add.0.forward.input.0", Verdict::kPass),
                Row("Torch.mul.0.forward", "Torch.mul.0.forward.output.0", Verdict::kWarning, {"warning: w"}),
                Row("Torch.add.0.forward", "Torch.add.0.forward.output.0", Verdict::kError, {"error: a<b & \"c\""})};
  return table;
}

TEST(JunitReportTest, OneCasePerApiGroupInFirstAppearanceOrder) {
  const JunitSuite suite = BuildJunitSuite("rank0", "out.csv", Table(), std::nullopt);
  ASSERT_EQ(suite.cases.size(), 2u);
  EXPECT_EQ(suite.cases[0].name, "Torch.add.0.forward");
  ASSERT_EQ(suite.cases[0].failures.size(), 1u);  // the level defaults to error
  EXPECT_EQ(suite.cases[0].failures[0].target_name, "Torch.add.0.forward.output.0");
  EXPECT_EQ(suite.cases[0].failures[0].err_message, "[\"error: a<b & \\\"c\\\"\"]");
  EXPECT_TRUE(suite.cases[1].failures.empty());
}

TEST(JunitReportTest, WarningLevelFailsWarningsToo) {
  const JunitSuite suite = BuildJunitSuite("rank0", "out.csv", Table(), Verdict::kWarning);
  EXPECT_EQ(suite.cases[1].failures.size(), 1u);
  EXPECT_EQ(suite.cases[1].failures[0].result, Verdict::kWarning);
}

TEST(JunitReportTest, WrittenXmlEscapesAndCounts) {
  testing::TempDir tmp;
  const std::string path = tmp.Path("report.xml");
  ASSERT_TRUE(WriteJunit(path, {BuildJunitSuite("rank0", "a&b.csv", Table(), Verdict::kError)}).ok());
  const std::string xml = testing::ReadFile(path);
  EXPECT_NE(xml.find("<testsuites name=\"msprobe-compare\" tests=\"2\" failures=\"1\" errors=\"0\">"), std::string::npos);
  EXPECT_NE(xml.find("value=\"a&amp;b.csv\""), std::string::npos);
  EXPECT_NE(xml.find("type=\"error\""), std::string::npos);
  EXPECT_NE(xml.find("a&lt;b &amp; \\&quot;c\\&quot;"), std::string::npos);
  EXPECT_NE(xml.find("<testcase name=\"Torch.mul.0.forward\" classname=\"rank0\"/>"), std::string::npos);
  EXPECT_EQ(xml.find('<', xml.find("<failure") + 1), xml.find("</failure>"));  // no raw markup inside
}

// The rows not compared (docs/compare.md §1.5): a last testcase, skipped when no gate fails on it, a
// failure when one does; the suite's and the run's counts include it.
TEST(JunitReportTest, NotComparedIsSkippedOrFailed) {
  testing::TempDir tmp;
  JunitSuite skipped = BuildJunitSuite("rank0", "out.csv", Table(), Verdict::kError);
  skipped.not_compared = JunitNotCompared{"1 target row(s) without a golden counterpart <x>", false};
  JunitSuite failed = BuildJunitSuite("rank1", "out1.csv", Table(), Verdict::kError);
  failed.not_compared = JunitNotCompared{"rank1: no target row matched a golden row", true};
  const std::string path = tmp.Path("report.xml");
  ASSERT_TRUE(WriteJunit(path, {skipped, failed}).ok());
  const std::string xml = testing::ReadFile(path);
  EXPECT_NE(xml.find("<testsuites name=\"msprobe-compare\" tests=\"6\" failures=\"3\" errors=\"0\">"), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testsuite name=\"rank0\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\""), std::string::npos);
  EXPECT_NE(xml.find("<testsuite name=\"rank1\" tests=\"3\" failures=\"2\" errors=\"0\" skipped=\"0\""), std::string::npos);
  EXPECT_NE(xml.find("    <testcase name=\"not compared\" classname=\"rank0\">\n"
                     "      <skipped message=\"1 target row(s) without a golden counterpart &lt;x&gt;\"/>\n"
                     "    </testcase>\n  </testsuite>"),
            std::string::npos);
  EXPECT_NE(xml.find("    <testcase name=\"not compared\" classname=\"rank1\">\n"
                     "      <failure message=\"rank1: no target row matched a golden row\" type=\"not compared\">"
                     "rank1: no target row matched a golden row</failure>\n"),
            std::string::npos);
}

// What XML 1.0 cannot hold, even as a character reference, must not reach the report: control
// characters and the non-characters U+FFFE/U+FFFF (which a dump.json can carry as "\ufffe").
TEST(JunitReportTest, CharactersXmlCannotHoldBecomeQuestionMarks) {
  ResultTable table;  // (Err_message is json.dumps text, ASCII already; names are written raw)
  table.rows = {Row("Torch.add.0.forward", "Torch.add.0.forward.output.0\x01\xef\xbf\xbe\xef\xbf\xbf caf\xc3\xa9",
                    Verdict::kError, {"error: e"})};
  testing::TempDir tmp;
  const std::string path = tmp.Path("report.xml");
  ASSERT_TRUE(WriteJunit(path, {BuildJunitSuite("rank0", "out.csv", table, Verdict::kError)}).ok());
  const std::string xml = testing::ReadFile(path);
  EXPECT_NE(xml.find("Torch.add.0.forward.output.0??? caf\xc3\xa9"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("\xef\xbf\xbe"), std::string::npos);
  EXPECT_EQ(xml.find('\x01'), std::string::npos);
}

}  // namespace
}  // namespace msprobe::compare
