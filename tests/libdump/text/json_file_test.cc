#include "msprobe/dump/text/json_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <new>

#include "msprobe/dump/util/sanitizers.h"
#include "test_support.h"

namespace msprobe {
namespace {

// A failed allocation throws, so programs say "out of memory" where RapidJSON's own allocator hands
// back null and RapidJSON writes through it. (AddressSanitizer aborts on such a request instead.)
TEST(JsonFileTest, FailedAllocationThrows) {
#if MSPROBE_UNDER_ASAN
  GTEST_SKIP() << "AddressSanitizer aborts on impossible allocations";
#endif
  JsonAllocator allocator;
  EXPECT_THROW(allocator.Malloc(size_t{1} << 62), std::bad_alloc);
  void* small = allocator.Malloc(16);
  ASSERT_NE(small, nullptr);
  EXPECT_THROW(allocator.Realloc(small, 16, size_t{1} << 62), std::bad_alloc);  // `small` is still ours
  JsonAllocator::Free(small);
  EXPECT_EQ(allocator.Malloc(0), nullptr);  // as RapidJSON's CrtAllocator
}

// msprobe's bare NaN/Infinity tokens are numbers, and values come out exactly as Python reads them.
TEST(JsonFileTest, ParsesPythonsTokensIntoTheProjectsDocument) {
  Result<JsonDocument> doc = ParseJsonText(R"({"a": NaN, "b": -Infinity, "c": 0.1, "d": [1, null]})", "t.json");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  EXPECT_TRUE(std::isnan((*doc)["a"].GetDouble()));
  EXPECT_EQ((*doc)["b"].GetDouble(), -INFINITY);
  EXPECT_EQ((*doc)["c"].GetDouble(), 0.1);  // float("0.1")
  EXPECT_TRUE((*doc)["d"][1].IsNull());
}

// Bytes Python's json.load would refuse (the file is not UTF-8) are refused at parse time, whether
// raw in a key or a value; escapes are fine, they decode to valid UTF-8.
TEST(JsonFileTest, RepeatedKeyGivesItsLastValueAsPythonDoes) {
  // json.loads('{"task": "a", "n": 1, "task": "b"}')["task"] == "b"
  auto doc = ParseJsonText(R"({"task": "a", "n": 1, "task": "b"})", "dump.json");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  ASSERT_NE(StringMember(*doc, "task"), nullptr);
  EXPECT_STREQ(StringMember(*doc, "task"), "b");
  EXPECT_EQ(Member(*doc, "missing"), nullptr);
}

TEST(JsonFileTest, InvalidUtf8IsRefusedAsPythonRefusesIt) {
  EXPECT_STATUS(ParseJsonText("{\"data_name\": \"x\xff\xfe.pt\"}", "dump.json"), Code::kInvalidInput,
                "invalid UTF-8 in the string that ends before byte 22");
  EXPECT_STATUS(ParseJsonText("{\"k\xc0\xaf\": 1}", "dump.json"), Code::kInvalidInput, "invalid UTF-8");
  Result<JsonDocument> escaped = ParseJsonText(R"({"k": "\ufffe\uffff \u00e9"})", "dump.json");
  ASSERT_TRUE(escaped.ok()) << escaped.status().ToString();
  EXPECT_EQ(std::string((*escaped)["k"].GetString()), "\xef\xbf\xbe\xef\xbf\xbf \xc3\xa9");
}

// json.loads refuses a UTF-8 BOM before the document ("Unexpected UTF-8 BOM"); each of its bytes
// where the value starts is an invalid value here too, while the same document after spaces reads.
TEST(JsonFileTest, AByteOfAUtf8BomWhereTheValueStartsIsRefused) {
  for (const char* text : {"\xEF\xBB\xBF{}", "\xBB{}", "\xBF[1]"}) {
    EXPECT_STATUS(ParseJsonText(text, "dump.json"), Code::kInvalidInput, "invalid JSON at byte 0: Invalid value.");
  }
  EXPECT_TRUE(ParseJsonText("   \n {\"k\": [1, 2]}", "dump.json").ok());
}

}  // namespace
}  // namespace msprobe
