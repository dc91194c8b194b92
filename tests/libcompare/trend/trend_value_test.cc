// How data2db reads numbers: Python's int() of directory numbers, Python's float() of text
// statistics, and the stored value of each (clamping, the infinities, NaN as none).
#include "trend/trend_value_internal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace msprobe::compare::internal {
namespace {

TEST(PythonInt, ReadsWhatIntReads) {
  EXPECT_EQ(PythonInt("007"), 7);
  EXPECT_EQ(PythonInt("-1"), -1);
  EXPECT_EQ(PythonInt("+2"), 2);
  EXPECT_EQ(PythonInt(" 3\t"), 3);
  EXPECT_EQ(PythonInt("1_0"), 10);
  for (const char* bad : {"", "x", "1x", "_1", "1_", "1__0", "-", "1.0", "99999999999999999999", "- 1"}) {
    EXPECT_FALSE(PythonInt(bad).has_value()) << bad;
  }
}

TEST(PythonFloat, ReadsWhatFloatReads) {
  EXPECT_EQ(PythonFloat(" 3 "), 3.0);
  EXPECT_EQ(PythonFloat("1_000.5"), 1000.5);
  EXPECT_EQ(PythonFloat("1."), 1.0);
  EXPECT_EQ(PythonFloat(".5e1"), 5.0);
  EXPECT_EQ(PythonFloat("-1E-2"), -0.01);
  EXPECT_EQ(PythonFloat("0.1"), 0.1);  // correctly rounded
  EXPECT_EQ(PythonFloat("inf"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(PythonFloat("-Infinity"), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(PythonFloat("1e400"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(PythonFloat("1e-400"), 0.0);
  EXPECT_TRUE(std::isnan(*PythonFloat("NaN")));
  for (const char* bad : {"", "abc", ".", "e5", "1e", "1._5", "1_.5", "0x10", "infinit", "1.5x", "--1"}) {
    EXPECT_FALSE(PythonFloat(bad).has_value()) << bad;
  }
}

TEST(TrendValue, ClampsAndKeepsTheInfinitiesApart) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(TrendValue(inf), 1e9 + 1);
  EXPECT_EQ(TrendValue(-inf), -1e9 - 1);
  EXPECT_EQ(TrendValue(1e9 + 1), 1e9);  // a finite value past the limit is clamped, never taken for inf
  EXPECT_EQ(TrendValue(-3e9), -1e9);
  EXPECT_EQ(TrendValue(-2.5), -2.5);
  EXPECT_FALSE(TrendValue(std::nan("")).has_value());
}

TEST(TrendValue, OfJsonValues) {
  auto value = [](const char* text) {
    Result<JsonDocument> doc = ParseJsonText(std::string("[") + text + "]", "test");
    EXPECT_TRUE(doc.ok()) << text;
    return TrendValue(&(*doc)[0]);
  };
  EXPECT_EQ(value("1.5"), 1.5);
  EXPECT_EQ(value("3"), 3.0);
  EXPECT_EQ(value("true"), 1.0);
  EXPECT_EQ(value("Infinity"), 1e9 + 1);
  EXPECT_EQ(value("\" -inf \""), -1e9 - 1);
  EXPECT_EQ(value("\"2e10\""), 1e9);
  EXPECT_FALSE(value("NaN").has_value());
  EXPECT_FALSE(value("\"abc\"").has_value());
  EXPECT_FALSE(value("null").has_value());
  EXPECT_FALSE(value("[1]").has_value());
  EXPECT_FALSE(value("{}").has_value());
  EXPECT_FALSE(TrendValue(static_cast<const JsonValue*>(nullptr)).has_value());  // a missing key
}

TEST(TrendValue, OfCsvCellsAsPandasReadsThem) {
  EXPECT_EQ(TrendValueOfCell("0.5"), 0.5);
  EXPECT_EQ(TrendValueOfCell("inf"), 1e9 + 1);
  EXPECT_EQ(TrendValueOfCell("1e12"), 1e9);
  for (const char* missing : {"", "nan", "NaN", "NULL", "N/A", "None", "#N/A", "<NA>"}) {
    EXPECT_TRUE(IsMissingCell(missing)) << missing;
    EXPECT_FALSE(TrendValueOfCell(missing).has_value()) << missing;
  }
  EXPECT_FALSE(IsMissingCell(" nan"));
  EXPECT_FALSE(TrendValueOfCell("text").has_value());
}

}  // namespace
}  // namespace msprobe::compare::internal
