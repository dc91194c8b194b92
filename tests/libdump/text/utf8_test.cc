#include "msprobe/dump/text/utf8.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace msprobe {
namespace {

struct Case {
  std::string bytes;
  std::optional<size_t> first_invalid;  // Python: bytes.decode("utf-8") → UnicodeDecodeError.start
};

// Expected values from CPython 3.11's strict UTF-8 decoder on the same bytes.
TEST(Utf8Test, AgreesWithPythonsDecoder) {
  const Case cases[] = {
      {"plain ascii text, longer than eight", std::nullopt},
      {"caf\xc3\xa9", std::nullopt},
      {"\xe2\x82\xac", std::nullopt},
      {"\xf0\x9f\x98\x80", std::nullopt},
      {"\xf4\x8f\xbf\xbf", std::nullopt},                  // U+10FFFF
      {"\xef\xbf\xbe\xef\xbf\xbf", std::nullopt},          // the non-characters U+FFFE, U+FFFF are valid UTF-8
      {"\xff\xfe", 0},
      {"a\xc0\xaf", 1},                                    // overlong '/'
      {"ab\xe0\x80\x80", 2},                               // overlong NUL
      {"\xed\xa0\x80", 0},                                 // an encoded surrogate
      {"\xf4\x90\x80\x80", 0},                             // past U+10FFFF
      {"ab\xe2\x82", 2},                                   // truncated
      {"\x80", 0},                                         // a stray continuation byte
      {"0123456789\xc1\xbf", 10},                          // after an ASCII word
      {"\xf5\x80\x80\x80", 0},
      {"ok\xc3", 2},
  };
  for (const Case& c : cases) EXPECT_EQ(FindInvalidUtf8(c.bytes), c.first_invalid) << testing::PrintToString(c.bytes);
}

// Every length up to 40, with one byte that can never start or continue UTF-8 (0xFF) at each place,
// or a valid two-byte sequence there: the word-at-a-time checks must see every byte.
TEST(Utf8Test, FindsTheBadByteWhereverItIs) {
  for (size_t size = 0; size <= 40; ++size) {
    const std::string ascii(size, 'k');
    EXPECT_EQ(FindInvalidUtf8(ascii), std::nullopt) << size;
    for (size_t at = 0; at < size; ++at) {
      std::string bad = ascii;
      bad[at] = '\xff';
      EXPECT_EQ(FindInvalidUtf8(bad), at) << size << " " << at;
      if (at + 1 < size) {
        std::string good = ascii;
        good[at] = '\xc3';
        good[at + 1] = '\xa9';
        EXPECT_EQ(FindInvalidUtf8(good), std::nullopt) << size << " " << at;
      }
    }
  }
}

}  // namespace
}  // namespace msprobe
