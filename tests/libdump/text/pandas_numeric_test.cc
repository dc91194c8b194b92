// Every expected value was printed by pandas 1.5.3 under CPython 3.11, as
// repr(float(pd.to_numeric(pd.Series([s, '0.5']))[0])): the '0.5' makes the column float64, as in
// msprobe's statistics frames, so integer texts come back as floats too.
#include "msprobe/dump/text/pandas_numeric.h"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

namespace msprobe {
namespace {

TEST(PandasNumericTest, ReadsNumbersAsToNumericDoes) {
  const std::pair<const char*, double> cases[] = {
      {"1.5", 1.5},       {"  3.5 ", 3.5},     {"\t2\n", 2.0},     {".5", 0.5},
      {"5.", 5.0},        {"+3", 3.0},         {"1e5", 100000.0},  {"1E5", 100000.0},
      {"00012", 12.0},    {"5e-324", 5e-324},  {"1e-400", 0.0},    {"1.7976931348623157e308", 1.7976931348623157e+308},
      {"123456789012345678", 1.2345678901234568e+17},
      {"12345678901234567890.5", 1.2345678901234567e+19},
      {"-6.929039955083649e-06", -6.929039955083649e-06}};
  for (const auto& [s, v] : cases) EXPECT_EQ(PandasToNumeric(s), v) << s;
}

// precise_xstrtod keeps 17 digits, leading zeros included, and scales in double arithmetic: these
// differ from float(s), shown beside each.
TEST(PandasNumericTest, KeepsPandasRoundingNotPythons) {
  const std::pair<const char*, double> cases[] = {
      {"-0.05550951284776673", -0.0555095128477667},     // float(s): -0.05550951284776673
      {"-0.024286686951704883", -0.0242866869517048},    // float(s): -0.024286686951704883
      {"-10922561189.039715", -10922561189.039717},      // float(s): -10922561189.039715
      {"0.008905413911078446", 0.0089054139110784},      // float(s): 0.008905413911078446
      {"0.000000000000000000012345678901234567891", 0.0}};  // float(s): 1.2345678901234569e-20
  for (const auto& [s, v] : cases) EXPECT_EQ(PandasToNumeric(s), v) << s;
}

TEST(PandasNumericTest, InfinitiesInAnyCase) {
  for (const char* s : {"inf", "+inf", "INF", "Infinity", "+infinity"}) EXPECT_EQ(PandasToNumeric(s), HUGE_VAL) << s;
  for (const char* s : {"-inf", "-infinity", "-INFINITY"}) EXPECT_EQ(PandasToNumeric(s), -HUGE_VAL) << s;
}

TEST(PandasNumericTest, RefusesWhatToNumericRefuses) {
  // pd.to_numeric(pd.Series([s, '0.5'])) raises ValueError for each s
  for (const char* s : {"1e400", "9e308", "1.5e", "1.5e+", " inf", "nan", "NaN", "1_0", "0x10", ".", "-", "1.2.3",
                        "True", "1,5", "1e5 x", "   "}) {
    EXPECT_FALSE(PandasToNumeric(s).has_value()) << s;
  }
  // pandas makes "" NaN, which msprobe's errors='coerce' callers take as no number, as this nullopt.
  EXPECT_FALSE(PandasToNumeric("").has_value());
}

}  // namespace
}  // namespace msprobe
