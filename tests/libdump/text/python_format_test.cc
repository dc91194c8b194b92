// Expected strings were printed by CPython 3.11 (repr, str, json.dumps, "%.12f", round).
#include "msprobe/dump/text/python_format.h"

#include <gtest/gtest.h>

#include <cmath>


namespace msprobe {
namespace {

TEST(PythonFormatTest, FloatReprMatchesCPython) {
  const std::pair<double, const char*> cases[] = {
      {1e-05, "1e-05"}, {0.0001, "0.0001"}, {1e16, "1e+16"}, {9999999999999998.0, "9999999999999998.0"},
      {1.0, "1.0"}, {-2.5, "-2.5"}, {0.1, "0.1"}, {1.0 / 3, "0.3333333333333333"}, {3e-300, "3e-300"},
      {1.7976931348623157e308, "1.7976931348623157e+308"}, {5e-324, "5e-324"}, {0.00012345, "0.00012345"},
      {123456789.125, "123456789.125"}, {1152921504606846976.0, "1.152921504606847e+18"}, {-0.0, "-0.0"},
      {INFINITY, "inf"}, {-INFINITY, "-inf"}, {NAN, "nan"}};
  for (const auto& [v, text] : cases) EXPECT_EQ(PythonFloatRepr(v), text) << text;
}

TEST(PythonFormatTest, RoundingAsPercentTwelveF) {
  EXPECT_EQ(RoundTo12Decimals(1.0 / 3), 0.333333333333);
  EXPECT_EQ(RoundTo12Decimals(3e-300), 0.0);
  EXPECT_EQ(RoundTo12Decimals(0.002005100249999), 0.00200510025);
  EXPECT_EQ(PythonRound(0.00012345, 6), 0.000123);
  EXPECT_EQ(PythonRound(1.0 / 3, 6), 0.333333);
}

TEST(PythonFormatTest, StringListsAsPythonAndJsonPrintThem) {
  EXPECT_EQ(PythonListOfStrings({"a", "it's", "x\ny", "q\""}), R"(['a', "it's", 'x\ny', 'q"'])");
  EXPECT_EQ(JsonDumpsStrings({"error: a", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "tab\t\""}),
            R"(["error: a", "\u00e9\u20ac\ud83d\ude00", "tab\t\""])");
  EXPECT_EQ(JsonDumpsStrings({}), "[]");
}

TEST(PythonFormatTest, StrOfJsonValues) {
  auto doc = ParseJsonText(R"([1, null, true, 1.5, "s", [0, 4, null], {"k": "v"}, 3.0])", "t");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(PythonStr(*doc), "[1, None, True, 1.5, 's', [0, 4, None], {'k': 'v'}, 3.0]");
  EXPECT_EQ(PythonStr((*doc)[4]), "s");  // a bare str prints without quotes
}

}  // namespace
}  // namespace msprobe
