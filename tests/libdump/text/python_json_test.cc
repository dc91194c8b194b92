// PyJsonWriter and JsonDumpsStrings against the text of Python's json.dumps (expected strings produced by
// CPython 3.11's json module).
#include "msprobe/dump/text/python_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "msprobe/dump/text/json_file.h"

namespace msprobe {
namespace {

TEST(PythonJsonTest, WritesWhatJsonDumpsWritesWithIndentFour) {
  PyJsonWriter w(4);
  w.BeginObject();
  w.Key("a");
  w.BeginArray();
  w.String("x\"\\\n\r\t\b\f\x01\x7f \xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80");
  w.Int(1);
  w.Float(2.5);
  w.Float(1e-05);
  w.Float(NAN);
  w.Float(HUGE_VAL);
  w.Float(-HUGE_VAL);
  w.Bool(true);
  w.Null();
  w.BeginArray();
  w.EndArray();
  w.BeginObject();
  w.EndObject();
  w.EndArray();
  w.Key("b");
  w.BeginObject();
  w.Key("c");
  w.Int(3);
  w.EndObject();
  w.EndObject();
  // json.dumps({'a': ['x"\\\n\r\t\b\f\x01\x7f é 中 😀', 1, 2.5, 1e-05, nan, inf, -inf, True, None, [], {}],
  //             'b': {'c': 3}}, indent=4)
  EXPECT_EQ(std::move(w).Finish(),
            "{\n    \"a\": [\n        \"x\\\"\\\\\\n\\r\\t\\b\\f\\u0001\\u007f \\u00e9 \\u4e2d \\ud83d\\ude00\",\n"
            "        1,\n        2.5,\n        1e-05,\n        NaN,\n        Infinity,\n        -Infinity,\n"
            "        true,\n        null,\n        [],\n        {}\n    ],\n    \"b\": {\n        \"c\": 3\n    }\n}");
}

// Specials past the first sixteen bytes of a string, where plain runs are scanned a block at a time.
TEST(PythonJsonTest, EscapesInLongStringsMatchJsonDumps) {
  PyJsonWriter w(4);
  w.String(std::string(20, 'a') + "\"" + std::string(17, 'b') + "\x7f" + std::string(33, 'c') + "\xc3\xa9" +
           std::string(15, 'd') + "\\" + std::string(16, 'e') + "\n");
  // json.dumps('a' * 20 + '"' + 'b' * 17 + '\x7f' + 'c' * 33 + 'é' + 'd' * 15 + '\\' + 'e' * 16 + '\n')
  EXPECT_EQ(std::move(w).Finish(),
            "\"aaaaaaaaaaaaaaaaaaaa\\\"bbbbbbbbbbbbbbbbb\\u007fccccccccccccccccccccccccccccccccc\\u00e9"
            "ddddddddddddddd\\\\eeeeeeeeeeeeeeee\\n\"");
}

// Text far past the first growth of the buffer, and a string long enough to need room of its own.
TEST(PythonJsonTest, LongOutputsGrowTheBufferIntact) {
  PyJsonWriter w(1);
  w.BeginArray();
  const std::string long_text(100000, 'q');
  for (int i = 0; i < 3000; ++i) w.Int(i);
  w.String(long_text);
  w.EndArray();
  const std::string text = std::move(w).Finish();
  std::string expected = "[";
  for (int i = 0; i < 3000; ++i) expected += (i ? ",\n " : "\n ") + std::to_string(i);
  expected += ",\n \"" + long_text + "\"\n]";
  EXPECT_EQ(text, expected);
}

// json.dump(json.load(text), indent=2): numbers re-printed, a repeated key at its first place with its
// last value, NaN and Infinity tokens, non-ASCII escaped (overflow_check's analyze file).
TEST(PythonJsonTest, ValuesAsJsonDumpWritesWhatJsonLoadMade) {
  const auto doc = ParseJsonText(R"({"a": [1, 2.50, 1e5, NaN, -Infinity, 18446744073709551615], "b": {}, "a": "é",
                                     "c": {"x": null, "y": [], "x": true}})", "t");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  PyJsonWriter w(2);
  w.Value(*doc);
  EXPECT_EQ(std::move(w).Finish(),
            "{\n  \"a\": \"\\u00e9\",\n  \"b\": {},\n  \"c\": {\n    \"x\": true,\n    \"y\": []\n  }\n}");
  const auto list = ParseJsonText("[1, 2.50, 1e5, NaN, -Infinity, 18446744073709551615]", "t");
  PyJsonWriter l(0);
  l.Value(*list);
  EXPECT_EQ(std::move(l).Finish(), "[\n1,\n2.5,\n100000.0,\nNaN,\n-Infinity,\n18446744073709551615\n]");
}

TEST(PythonJsonTest, StringListsAsJsonDumpsWritesThem) {
  // json.dumps(["error: a", "é€😀", "tab\t\"", "\x01\x7f", "back\\", "\b\f"])
  EXPECT_EQ(JsonDumpsStrings(
                {"error: a", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "tab\t\"", "\x01\x7f", "back\\", "\b\f"}),
            R"(["error: a", "\u00e9\u20ac\ud83d\ude00", "tab\t\"", "\u0001\u007f", "back\\", "\b\f"])");
  EXPECT_EQ(JsonDumpsStrings({}), "[]");  // json.dumps([])
  // json.dumps(['a' * 20 + '"' + 'b' * 17, 'é'])
  EXPECT_EQ(JsonDumpsStrings({std::string(20, 'a') + "\"" + std::string(17, 'b'), "\xc3\xa9"}),
            "[\"aaaaaaaaaaaaaaaaaaaa\\\"bbbbbbbbbbbbbbbbb\", \"\\u00e9\"]");
}

}  // namespace
}  // namespace msprobe
