// AppendCsvQuoted against the rule of Python's csv.writer with QUOTE_MINIMAL (and our '\r'): a field
// is quoted when, and only when, it holds ',', '"', '\r' or '\n', at any place of any length; its '"'
// are doubled. (The fields of real tables: tests/libcompare/output/csv_writer_test.cc.)
#include "msprobe/dump/text/csv_quote.h"

#include <gtest/gtest.h>

#include <string>

namespace msprobe {
namespace {

std::string Quoted(const std::string& field) {
  std::string out;
  AppendCsvQuoted(&out, field);
  return out;
}

TEST(CsvQuoteTest, QuotesWhateverPlaceTheCharacterIsAt) {
  for (size_t length = 1; length <= 40; ++length) {
    const std::string plain(length, 'a');
    EXPECT_EQ(Quoted(plain), plain);
    // Bytes one away from a special one in value, and bytes with the high bit set, are not special.
    EXPECT_EQ(Quoted(std::string(length, '+')), std::string(length, '+'));
    EXPECT_EQ(Quoted(std::string(length, '\xac')), std::string(length, '\xac'));
    for (size_t at = 0; at < length; ++at) {
      for (const char special : {',', '\r', '\n'}) {
        std::string field = plain;
        field[at] = special;
        EXPECT_EQ(Quoted(field), '"' + field + '"') << length << " " << at << " " << int(special);
      }
      std::string field = plain;
      field[at] = '"';
      std::string doubled = plain;
      doubled.insert(at, 1, '"');
      doubled[at + 1] = '"';
      EXPECT_EQ(Quoted(field), '"' + doubled + '"') << length << " " << at;
    }
  }
  EXPECT_EQ(Quoted(""), "");
}

}  // namespace
}  // namespace msprobe
