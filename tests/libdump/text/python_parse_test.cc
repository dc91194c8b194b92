// Every expected value was printed by CPython 3.11; each case names the Python expression.
#include "msprobe/dump/text/python_parse.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "test_support.h"

namespace msprobe {
namespace {

TEST(PythonParseTest, FloatTakesWhatFloatTakes) {
  // float(s) for each s
  const std::pair<const char*, double> cases[] = {
      {"1.5", 1.5},        {" 2 ", 2.0},         {"\t-3e2\n", -300.0}, {"1_000.5", 1000.5}, {"1e1_0", 1e10},
      {"iNfInItY", HUGE_VAL}, {"-inf", -HUGE_VAL}, {"1e999", HUGE_VAL}, {".5", 0.5},        {"5.", 5.0},
      {"+1.5E-3", 0.0015}, {"-0.0", -0.0}};
  for (const auto& [s, v] : cases) {
    const std::optional<double> got = PythonFloat(s);
    ASSERT_TRUE(got.has_value()) << s;
    EXPECT_EQ(*got, v) << s;
    EXPECT_EQ(std::signbit(*got), std::signbit(v)) << s;
  }
  EXPECT_TRUE(std::isnan(PythonFloat("+nan").value()));  // float('+nan')
  EXPECT_TRUE(std::isnan(PythonFloat("-NaN").value()));  // float('-NaN')
}

// float(t) for 5,333 texts (tests/data/python_float/gen_python_float.py): repr() of every magnitude,
// as the relative-error cells hold them, decimals between doubles and exactly halfway, subnormals,
// underflow and overflow; bit for bit.
TEST(PythonParseTest, FloatAsCPythonReadsIt) {
  const auto cases = testing::ReadTabSeparatedPairs(testing::TestData("python_float/python_float.tsv"));
  ASSERT_EQ(cases.size(), 5333u) << "tests/data/python_float/python_float.tsv";
  for (const auto& [text, hex] : cases) {
    const std::optional<double> got = PythonFloat(text);
    ASSERT_TRUE(got.has_value()) << text;
    EXPECT_EQ(std::bit_cast<uint64_t>(*got), testing::BitsOfLittleEndianHex(hex)) << text;
  }
}

TEST(PythonParseTest, FloatRefusesWhatFloatRefuses) {
  // float(s) raises ValueError for each s
  for (const char* s : {"1__0", "_1", "1_", "1_.5", "1._5", ".", "1e", "", "   ", "abc", "0x10", "1.5%", "+-1",
                        "\x1c" "1", "nan(1)", "1e5 x"}) {
    EXPECT_FALSE(PythonFloat(s).has_value()) << s;
  }
}

TEST(PythonParseTest, IntTakesWhatIntTakes) {
  // int(s) for each s
  const std::pair<const char*, int64_t> cases[] = {{"12", 12},   {" 12 ", 12}, {"+5", 5},   {"-7", -7},
                                                   {"\t3\n", 3}, {"1_0", 10},  {"007", 7}, {"-0", 0},
                                                   {"9223372036854775807", 9223372036854775807}};
  for (const auto& [s, v] : cases) EXPECT_EQ(PythonInt(s), v) << s;
  // int(s) raises ValueError for each s
  for (const char* s : {"1.0", "", "abc", "0x10", "1__0", "_1", "1_", "+", "1 2"}) {
    EXPECT_FALSE(PythonInt(s).has_value()) << s;
  }
  // int('9223372036854775808') is a Python int past int64: not taken here.
  EXPECT_FALSE(PythonInt("9223372036854775808").has_value());
}

TEST(PythonParseTest, StrOfAListOfStrReadsBack) {
  // str(['a', "b'c", 'x\ny', 'é', '\x01', '\u200b', 'q"', 'back\\']) and the UTF-8 of each item
  EXPECT_EQ(ParsePythonStrList(R"(['a', "b'c", 'x\ny', 'é', '\x01', '\u200b', 'q"', 'back\\'])"),
            (std::vector<std::string>{"a", "b'c", "x\ny", "\xc3\xa9", "\x01", "\xe2\x80\x8b", "q\"", "back\\"}));
  EXPECT_EQ(ParsePythonStrList("[]"), std::vector<std::string>{});  // str([])
  // ast.literal_eval("['\\x41\\u00e9\\U0001F600']") == ['Aé😀']
  EXPECT_EQ(ParsePythonStrList(R"(['\x41\u00e9\U0001F600'])"),
            std::vector<std::string>{"A\xc3\xa9\xf0\x9f\x98\x80"});
  // Not what str() of a list of str prints.
  for (const char* text : {"[a]", "'a'", "['unterminated]", "['a',  'b']", "['a', 'b',]", "['a'] ", "[1]"}) {
    EXPECT_FALSE(ParsePythonStrList(text).has_value()) << text;
  }
}

}  // namespace
}  // namespace msprobe
