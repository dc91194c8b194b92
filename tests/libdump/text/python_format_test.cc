// Every expected string or number was printed by CPython 3.11 (numpy 1.24 for the shapes); each
// case names the Python expression that produced it.
#include "msprobe/dump/text/python_format.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "test_support.h"

namespace msprobe {
namespace {

// The object json.load makes of `text`, kept alive with its document.
class Loaded {
 public:
  explicit Loaded(const char* text) : doc_(ParseJsonText(text, "test")) {}
  const JsonValue& operator*() const { return *doc_; }
  const JsonValue* get() const { return &*doc_; }

 private:
  Result<JsonDocument> doc_;
};

TEST(PythonFormatTest, FloatReprMatchesCPython) {
  // repr(x)
  const std::pair<double, const char*> cases[] = {
      {1e-05, "1e-05"}, {0.0001, "0.0001"}, {1e16, "1e+16"}, {9999999999999998.0, "9999999999999998.0"},
      {1.0, "1.0"}, {-2.5, "-2.5"}, {0.1, "0.1"}, {1.0 / 3, "0.3333333333333333"}, {3e-300, "3e-300"},
      {1.7976931348623157e308, "1.7976931348623157e+308"}, {5e-324, "5e-324"}, {0.00012345, "0.00012345"},
      {123456789.125, "123456789.125"}, {1152921504606846976.0, "1.152921504606847e+18"}, {-0.0, "-0.0"},
      {INFINITY, "inf"}, {-INFINITY, "-inf"}, {NAN, "nan"},
      // digits in one and in two halves of eight, trailing zeros of the integer part written out
      {0.1 + 0.2, "0.30000000000000004"}, {2.0 / 3, "0.6666666666666666"}, {123456789.0, "123456789.0"},
      {100000000.0, "100000000.0"}, {1e22, "1e+22"}, {-1e-5 / 3, "-3.3333333333333337e-06"}};
  for (const auto& [v, text] : cases) EXPECT_EQ(PythonFloatRepr(v), text) << text;
  char out[48];
  EXPECT_EQ(std::string(out, AppendPythonFloatRepr(out, 1e-05)), "1e-05");
}

// repr(v) of 2,514 doubles of every form (tests/data/python_float/gen_python_float.py): any bits,
// every magnitude, float32 statistics, short decimals, integers about 2^53.
TEST(PythonFormatTest, FloatReprAsCPythonWritesIt) {
  const auto cases = testing::ReadTabSeparatedPairs(testing::TestData("python_float/python_repr.tsv"));
  ASSERT_EQ(cases.size(), 2514u) << "tests/data/python_float/python_repr.tsv";
  for (const auto& [hex, repr] : cases) {
    EXPECT_EQ(PythonFloatRepr(std::bit_cast<double>(testing::BitsOfLittleEndianHex(hex))), repr) << hex;
  }
}

TEST(PythonFormatTest, BoolsPrintCapitalized) {
  EXPECT_EQ(PythonBoolStr(true), "True");    // str(True)
  EXPECT_EQ(PythonBoolStr(false), "False");  // str(False)
}

TEST(PythonFormatTest, StrReprPicksQuotesAndEscapesAsCPython) {
  EXPECT_EQ(PythonStrRepr("it's"), R"("it's")");                          // repr("it's")
  EXPECT_EQ(PythonStrRepr("say \"hi\""), R"('say "hi"')");                // repr('say "hi"')
  EXPECT_EQ(PythonStrRepr("both ' and \""), R"('both \' and "')");        // repr('both \' and "')
  EXPECT_EQ(PythonStrRepr("back\\slash"), R"('back\\slash')");            // repr('back\\slash')
  EXPECT_EQ(PythonStrRepr("tab\tnl\ncr\r"), R"('tab\tnl\ncr\r')");        // repr('tab\tnl\ncr\r')
  EXPECT_EQ(PythonStrRepr("\x01\x7f"), R"('\x01\x7f')");                  // repr('\x01\x7f')
  EXPECT_EQ(PythonStrRepr(std::string("a\0b", 3)), R"('a\x00b')");       // repr('a\x00b')
  EXPECT_EQ(PythonStrRepr("\xc3\xa9\xe2\x82\xac"), "'\xc3\xa9\xe2\x82\xac'");  // repr('é€')
  EXPECT_EQ(PythonStrRepr(""), "''");                                     // repr('')
}

TEST(PythonFormatTest, StrOfJsonValues) {
  const Loaded list(R"([1, null, true, 1.5, "s", [0, 4, null], {"k": "v"}, 3.0])");
  // str(json.loads('[1, null, true, 1.5, "s", [0, 4, null], {"k": "v"}, 3.0]'))
  EXPECT_EQ(PythonStr(*list), "[1, None, True, 1.5, 's', [0, 4, None], {'k': 'v'}, 3.0]");
  EXPECT_EQ(PythonStr((*list)[4]), "s");  // str('s'): a bare str prints without quotes
  const Loaded dict(R"({"a": [1, null, "it's"], "b": {"c": 1e16}, "d": -0.0, "e": 18446744073709551615,
                        "f": false, "g": NaN, "h": -Infinity})");
  // str(json.loads('{"a": [1, null, "it\'s"], "b": {"c": 1e16}, "d": -0.0, "e": 18446744073709551615,
  //                  "f": false, "g": NaN, "h": -Infinity}'))
  EXPECT_EQ(PythonStr(*dict), "{'a': [1, None, \"it's\"], 'b': {'c': 1e+16}, 'd': -0.0, 'e': 18446744073709551615, "
                              "'f': False, 'g': nan, 'h': -inf}");
}

TEST(PythonFormatTest, TypeStrOfJsonValues) {
  // str(type(json.loads(text))) for each text
  const std::pair<const char*, const char*> cases[] = {
      {"null", "<class 'NoneType'>"}, {"true", "<class 'bool'>"},      {"1", "<class 'int'>"},
      {"18446744073709551615", "<class 'int'>"}, {"1.5", "<class 'float'>"}, {"\"x\"", "<class 'str'>"},
      {"[1]", "<class 'list'>"},      {"{\"a\": 1}", "<class 'dict'>"}};
  for (const auto& [text, type] : cases) EXPECT_EQ(PythonTypeStr(Loaded(text).get()), type) << text;
  EXPECT_EQ(PythonTypeStr(nullptr), "<class 'NoneType'>");  // str(type(None))
}

TEST(PythonFormatTest, TruthinessOfJsonValues) {
  // bool(json.loads(text)) for each text
  const std::pair<const char*, bool> cases[] = {
      {"null", false}, {"false", false}, {"true", true},  {"0", false},    {"1", true},
      {"-0.0", false}, {"0.0", false},   {"1e-300", true}, {"\"\"", false}, {"\"x\"", true},
      {"[]", false},   {"[0]", true},    {"{}", false},    {"{\"a\": null}", true}, {"NaN", true},
      {"18446744073709551615", true}};
  for (const auto& [text, truthy] : cases) EXPECT_EQ(PythonTruthy(*Loaded(text)), truthy) << text;
}

TEST(PythonFormatTest, ListsSetsAndTuples) {
  // str(['a', "it's", 'x\ny', 'q"']) and str([])
  EXPECT_EQ(PythonListOfStrings({"a", "it's", "x\ny", "q\""}), R"(['a', "it's", 'x\ny', 'q"'])");
  EXPECT_EQ(PythonListOfStrings({}), "[]");
  // '{' + ', '.join(map(repr, ['Cosine', 'EucDist'])) + '}': a set's repr in its iteration order
  EXPECT_EQ(PythonSetOfStrings({"Cosine", "EucDist"}), "{'Cosine', 'EucDist'}");
  EXPECT_EQ(PythonSetOfStrings({"it's"}), R"({"it's"})");  // repr({"it's"})
  EXPECT_EQ(PythonSetOfStrings({}), "set()");              // repr(set())
  // repr(()), repr((5,)), repr((2, 3)), repr((0, 1, 2))
  const std::vector<std::pair<std::vector<int64_t>, const char*>> tuples = {
      {{}, "()"}, {{5}, "(5,)"}, {{2, 3}, "(2, 3)"}, {{0, 1, 2}, "(0, 1, 2)"}};
  for (const auto& [ints, text] : tuples) EXPECT_EQ(PythonIntTuple(ints), text);
}

TEST(PythonFormatTest, NumpyShapesOfJsonValues) {
  // str(np.shape(np.array(json.loads(text)))) for each text
  const std::pair<const char*, const char*> cases[] = {
      {"[1, 2, 3]", "(3,)"},    {"[[1, 2], [3, 4]]", "(2, 2)"}, {"[]", "(0,)"},
      {"5", "()"},              {"null", "()"},                 {"[[], []]", "(2, 0)"},
      {"[[1, 2, 3]]", "(1, 3)"}, {"[null, null]", "(2,)"},      {"[[[1], [2]], [[3], [4]]]", "(2, 2, 1)"},
      {"[0, null, 2]", "(3,)"}};
  for (const auto& [text, shape] : cases) EXPECT_EQ(NumpyShapeStr(Loaded(text).get()), shape) << text;
  EXPECT_EQ(NumpyShapeStr(nullptr), "()");  // str(np.shape(np.array(None)))
}

TEST(PythonFormatTest, RoundingAsPercentTwelveFAndRound) {
  EXPECT_EQ(RoundTo12Decimals(1.0 / 3), 0.333333333333);            // float('%.12f' % (1/3))
  EXPECT_EQ(RoundTo12Decimals(2.0 / 3), 0.666666666667);            // float('%.12f' % (2/3))
  EXPECT_EQ(RoundTo12Decimals(3e-300), 0.0);                        // float('%.12f' % 3e-300)
  EXPECT_EQ(RoundTo12Decimals(0.002005100249999), 0.00200510025);   // float('%.12f' % 0.002005100249999)
  EXPECT_EQ(RoundTo12Decimals(0.1234567890125), 0.123456789012);    // float('%.12f' % 0.1234567890125)
  EXPECT_TRUE(std::signbit(RoundTo12Decimals(-5e-13)));             // float('%.12f' % -5e-13) is -0.0
  EXPECT_EQ(PythonRound(0.00012345, 6), 0.000123);                  // round(0.00012345, 6)
  EXPECT_EQ(PythonRound(1.0 / 3, 6), 0.333333);                     // round(1/3, 6)
  EXPECT_EQ(PythonRound(2.675, 2), 2.67);                           // round(2.675, 2)
  EXPECT_EQ(PythonRound(2.5, 0), 2.0);                              // round(2.5, 0)
  EXPECT_EQ(PythonRound(0.99999949, 6), 0.999999);                  // round(0.99999949, 6)
  EXPECT_EQ(PythonRound(-1.0000005, 6), -1.000001);                 // round(-1.0000005, 6)
  EXPECT_EQ(PythonRound(1e20, 2), 1e20);                            // round(1e20, 2)
  EXPECT_TRUE(std::isnan(PythonRound(NAN, 6)));                     // round(float('nan'), 6)
}

TEST(PythonFormatTest, SplitAsStrSplit) {
  using V = std::vector<std::string_view>;
  EXPECT_EQ(PythonSplit("a.b.c", '.'), (V{"a", "b", "c"}));  // 'a.b.c'.split('.')
  EXPECT_EQ(PythonSplit("a..b.", '.'), (V{"a", "", "b", ""}));
  EXPECT_EQ(PythonSplit("", ';'), (V{""}));                 // ''.split(';')
  EXPECT_EQ(PythonSplit("x", ';'), (V{"x"}));
}

TEST(PythonFormatTest, ReplaceAsStrReplace) {
  EXPECT_EQ(PythonReplace("aabb", "ab", ""), "ab");             // 'aabb'.replace('ab', '')
  EXPECT_EQ(PythonReplace("x.x.x", "x.x", ""), ".x");           // 'x.x.x'.replace('x.x', '')
  EXPECT_EQ(PythonReplace("abc", "", "-"), "-a-b-c-");          // 'abc'.replace('', '-')
  EXPECT_EQ(PythonReplace("abc", "", "-", 2), "-a-bc");         // 'abc'.replace('', '-', 2)
  EXPECT_EQ(PythonReplace("", "", "x"), "x");                   // ''.replace('', 'x')
  EXPECT_EQ(PythonReplace("aaa", "a", "b", 2), "bba");          // 'aaa'.replace('a', 'b', 2)
  EXPECT_EQ(PythonReplace("abc", "x", "y"), "abc");             // 'abc'.replace('x', 'y')
  // 'Cell.a.Cell'.replace('Cell', 'Module', 1)
  EXPECT_EQ(PythonReplace("Cell.a.Cell", "Cell", "Module", 1), "Module.a.Cell");
  // 'Functional.conv2d.0.forward.input.0'.replace('Functional.conv2d.0.forward', '')
  EXPECT_EQ(PythonReplace("Functional.conv2d.0.forward.input.0", "Functional.conv2d.0.forward", ""), ".input.0");
}

}  // namespace
}  // namespace msprobe
