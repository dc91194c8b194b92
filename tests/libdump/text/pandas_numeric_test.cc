// Every expected value was printed by pandas 1.5.3 under CPython 3.11, as
// repr(float(pd.to_numeric(pd.Series([s, '0.5']))[0])): the '0.5' makes the column float64, as in
// msprobe's statistics frames, so integer texts come back as floats too.
#include "msprobe/dump/text/pandas_numeric.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>

#include "msprobe/dump/text/python_format.h"

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

// Reading repr(v) without its text is checked against the parse of the text (whose rounding the
// tests above hold to pandas'), bit for bit, over every form repr() writes.
TEST(PandasNumericTest, ReprReadWithoutTextAsFromIt) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> scale(-40, 40);
  size_t checked = 0;
  const auto check = [&](double v) {
    ++checked;
    const std::string text = PythonFloatRepr(v);
    const std::optional<double> read = PandasToNumeric(text), direct = PandasToNumericOfRepr(v);
    ASSERT_EQ(read.has_value(), direct.has_value()) << text;
    if (read) {
      ASSERT_EQ(std::bit_cast<uint64_t>(*read), std::bit_cast<uint64_t>(*direct)) << text;
    }
  };
  for (int i = 0; i < 300000; ++i) {
    check(std::bit_cast<double>(rng()));                                    // any bits: NaN, inf, subnormals
    check(normal(rng) * std::pow(10.0, scale(rng)));                        // every magnitude: "e" forms
    check(static_cast<float>(normal(rng) * 100));                           // float32 statistics, 17 digits
    check(std::round(normal(rng) * 1e6) / std::pow(10.0, scale(rng) % 8));  // short decimals, "ddd000.0"
    check(static_cast<double>(rng() >> (scale(rng) + 40) % 16));            // integers about 2^53 and past it
  }
  EXPECT_EQ(checked, 1500000u);
  // The texts pandas reads otherwise than Python, and the edges of each form.
  for (double v : {-0.05550951284776673, -0.024286686951704883, -10922561189.039715, 0.008905413911078446, 0.0, -0.0,
                   1e16, 9999999999999998.0, 1e-4, 1.2345678901234567e-4, 1e-5, 1.7976931348623157e308, 5e-324,
                   2.2250738585072014e-308, 9007199254740993.0, 123456789012345680.0}) {
    check(v);
  }
  EXPECT_EQ(PandasToNumericOfRepr(-0.024286686951704883), -0.0242866869517048);
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
