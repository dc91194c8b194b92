#include "msprobe/dump/text/csv_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.h"

namespace msprobe {
namespace {

struct Record {
  uint64_t line;
  std::vector<std::string> fields;
};

Result<std::vector<Record>> Parse(const std::string& text, size_t max_fields = SIZE_MAX) {
  std::vector<Record> records;
  Status s = ReadCsv(
      AsBytes(text), "t.csv",
      [&](uint64_t line, std::span<const std::string_view> fields) {
        records.push_back({line, std::vector<std::string>(fields.begin(), fields.end())});
        return Status::Ok();
      },
      max_fields);
  if (!s.ok()) return s;
  return records;
}

using Fields = std::vector<std::string>;

TEST(CsvReader, SplitsFieldsThatCrossScanBlocks) {
  // Fields longer than the reader's 64-byte scan blocks, and many short ones after them.
  const std::string longer(100, 'x');
  const std::string text = longer + ",a,bb,,ccc\n" + std::string(63, 'y') + "," + std::string(65, 'z') + "\nlast";
  auto records = Parse(text);
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_EQ(records->size(), 3u);
  EXPECT_EQ((*records)[0].fields, (Fields{longer, "a", "bb", "", "ccc"}));
  EXPECT_EQ((*records)[1].fields, (Fields{std::string(63, 'y'), std::string(65, 'z')}));
  EXPECT_EQ((*records)[2].fields, (Fields{"last"}));
  EXPECT_EQ((*records)[2].line, 3u);
}

TEST(CsvReader, QuotedFieldsWithAndWithoutEscapesKeepTheirPlace) {
  auto records = Parse("n,\"[32, 1024]\",\"say \"\"hi\"\"\",\"[2]\",\"a\"\"\",end\n");
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_EQ(records->size(), 1u);
  EXPECT_EQ((*records)[0].fields, (Fields{"n", "[32, 1024]", "say \"hi\"", "[2]", "a\"", "end"}));
}

TEST(CsvReader, LineBreaksInsideQuotesCountForLaterLines) {
  auto records = Parse("\"a\nb\",\"c\"\"\nd\"\r\nx,y\rz\n");
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_EQ(records->size(), 3u);
  EXPECT_EQ((*records)[0].fields, (Fields{"a\nb", "c\"\nd"}));
  EXPECT_EQ((*records)[1].line, 4u);
  EXPECT_EQ((*records)[1].fields, (Fields{"x", "y"}));
  EXPECT_EQ((*records)[2].fields, (Fields{"z"}));
}

TEST(CsvReader, BlankLinesAreSkippedButAQuotedEmptyFieldIsARecord) {
  auto records = Parse("\xEF\xBB\xBF" "a,b\n\n\"\"\n\r\nc\n");
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_EQ(records->size(), 3u);
  EXPECT_EQ((*records)[0].fields, (Fields{"a", "b"}));
  EXPECT_EQ((*records)[1].fields, (Fields{""}));
  EXPECT_EQ((*records)[1].line, 3u);
  EXPECT_EQ((*records)[2].fields, (Fields{"c"}));
  EXPECT_EQ((*records)[2].line, 5u);
}

TEST(CsvReader, UnclosedQuoteNamesTheRecordLine) {
  EXPECT_STATUS(Parse("a\nb,\"open\nmore"), Code::kInvalidInput, "line 2: quoted field is not closed");
  EXPECT_STATUS(Parse("a\n\"x\"\"y"), Code::kInvalidInput, "line 2: quoted field is not closed");
}

TEST(CsvReader, CharacterAfterClosingQuoteIsAnError) {
  EXPECT_STATUS(Parse("a,\"b\"c\n"), Code::kInvalidInput, "line 1: character 'c' after a closing quote");
}

TEST(CsvReader, RecordsWiderThanTheLimitAreAnError) {
  auto within = Parse("a,b,c\n\"x,y\",z,\n", 3);
  ASSERT_TRUE(within.ok()) << within.status().ToString();
  EXPECT_EQ((*within)[1].fields, (Fields{"x,y", "z", ""}));
  EXPECT_STATUS(Parse("a,b,c\n\nd,e,f,g\n", 3), Code::kInvalidInput, "line 3: more than 3 fields");
}

}  // namespace
}  // namespace msprobe
