// The codec of messages between processes (util/coding.h): what Put… writes, Get… reads back bit for
// bit, and a message cut short or malformed fails where it goes wrong, never reading past its end.
#include "msprobe/dump/util/coding.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace msprobe {
namespace {

TEST(Coding, VarintsRoundTripAtEveryLength) {
  std::string bytes;
  std::vector<uint64_t> values;
  for (int bits = 0; bits <= 64; ++bits) {
    const uint64_t v = bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
    values.push_back(v);
    values.push_back(v + 1);  // the first value of one byte more (0 after the largest)
  }
  for (uint64_t v : values) PutVarint64(&bytes, v);
  Decoder in(bytes, "varints");
  for (uint64_t v : values) {
    uint64_t got = 1;
    ASSERT_TRUE(GetVarint64(&in, &got));
    EXPECT_EQ(got, v);
  }
  EXPECT_EQ(in.size(), 0u);
  EXPECT_TRUE(in.ok());
  std::string one;
  PutVarint64(&one, 127);
  EXPECT_EQ(one.size(), 1u);
  PutVarint64(&one, std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(one.size(), 11u);  // 1 + 10
}

TEST(Coding, SignedVarintsAreZigzagged) {
  std::string bytes;
  const int64_t values[] = {0, -1, 1, -64, 63, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  for (int64_t v : values) PutSignedVarint64(&bytes, v);
  PutSignedVarint32(&bytes, std::numeric_limits<int32_t>::min());
  Decoder in(bytes, "signed");
  for (int64_t v : values) {
    int64_t got = 0;
    ASSERT_TRUE(GetSignedVarint64(&in, &got));
    EXPECT_EQ(got, v);
  }
  int32_t small = 0;
  ASSERT_TRUE(GetSignedVarint32(&in, &small));
  EXPECT_EQ(small, std::numeric_limits<int32_t>::min());
  std::string minus_one;
  PutSignedVarint64(&minus_one, -1);
  EXPECT_EQ(minus_one, std::string(1, '\x01'));  // small magnitudes take one byte
}

TEST(Coding, DoublesComeBackBitForBit) {
  const double values[] = {0.0,
                           -0.0,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::max(),
                           std::bit_cast<double>(uint64_t{0x7ff8000000000001}),   // a NaN with a payload
                           std::bit_cast<double>(uint64_t{0xfff0000000000abc}),   // a signalling, negative NaN
                           0.1};
  std::string bytes;
  for (double v : values) PutDouble(&bytes, v);
  EXPECT_EQ(bytes.size(), 8 * std::size(values));
  Decoder in(bytes, "doubles");
  for (double v : values) {
    double got = 1;
    ASSERT_TRUE(GetDouble(&in, &got));
    EXPECT_EQ(std::bit_cast<uint64_t>(got), std::bit_cast<uint64_t>(v));
  }
}

TEST(Coding, StringsHoldAnyBytes) {
  const std::string values[] = {"", std::string("a\0b", 3), std::string(1 << 16, '\xff'), "naïve"};
  std::string bytes;
  for (const std::string& v : values) PutString(&bytes, v);
  Decoder in(bytes, "strings");
  for (const std::string& v : values) {
    std::string got = "x";
    ASSERT_TRUE(GetString(&in, &got));
    EXPECT_EQ(got, v);
  }
}

TEST(Coding, StatusKeepsItsCodeSourceAndMessage) {
  for (const Status& s : {Status::Ok(), Status::InvalidInput("/a.json", "bad"), Status::NotFound("/b", "gone"),
                          Status::IOError("/c", "disk"), Status::Unsupported("/d", "no"), Status::Internal("", "oom")}) {
    const Status d = DecodeStatus(EncodeStatus(s));
    EXPECT_EQ(d.code(), s.code());
    EXPECT_EQ(d.source(), s.source());
    EXPECT_EQ(d.message(), s.message());
  }
}

TEST(Coding, ListsOfMessagesRoundTrip) {
  const std::vector<std::string> strings = {"", std::string("a\0b", 3), std::string(1 << 16, '\xff')};
  EXPECT_EQ(UnpackStrings(PackStrings(strings)), strings);
  EXPECT_TRUE(UnpackStrings(PackStrings({})).empty());
}

TEST(Coding, ATruncatedFieldFailsAtItsOffset) {
  std::string bytes;
  PutVarint64(&bytes, 7);
  PutString(&bytes, "hello");
  bytes.pop_back();
  Decoder in(bytes, "a greeting");
  uint64_t seven = 0;
  std::string hello;
  ASSERT_TRUE(GetVarint64(&in, &seven));
  EXPECT_FALSE(GetString(&in, &hello));
  EXPECT_EQ(in.status().ToString(), "a greeting: at offset 2, truncated: a string of 5 bytes, 4 left");
  // The first failure stays, and nothing more is read.
  EXPECT_FALSE(GetVarint64(&in, &seven));
  EXPECT_EQ(in.size(), 0u);
  EXPECT_EQ(in.status().message(), "at offset 2, truncated: a string of 5 bytes, 4 left");
}

TEST(Coding, EveryPrimitiveRejectsAMessageCutShort) {
  std::string v, d, s;
  PutVarint64(&v, uint64_t{1} << 40);
  PutDouble(&d, 1.5);
  PutString(&s, "abc");
  for (size_t n = 0; n < v.size(); ++n) {
    Decoder in(std::string_view(v).substr(0, n), "v");
    uint64_t x;
    EXPECT_FALSE(GetVarint64(&in, &x));
  }
  for (size_t n = 0; n < d.size(); ++n) {
    Decoder in(std::string_view(d).substr(0, n), "d");
    double x;
    EXPECT_FALSE(GetDouble(&in, &x));
  }
  for (size_t n = 0; n < s.size(); ++n) {
    Decoder in(std::string_view(s).substr(0, n), "s");
    std::string x;
    EXPECT_FALSE(GetString(&in, &x));
  }
  Decoder empty("", "b");
  bool b;
  EXPECT_FALSE(GetBool(&empty, &b));
  EXPECT_EQ(empty.status().message(), "at offset 0, truncated: a bool");
}

TEST(Coding, MalformedFieldsAreRejected) {
  const auto fails = [](std::string bytes, const auto& get, const std::string& message) {
    Decoder in(bytes, "m");
    EXPECT_FALSE(get(&in)) << message;
    EXPECT_EQ(in.status().message(), message);
  };
  fails(std::string(10, '\x80') + '\x01', [](Decoder* in) { uint64_t x; return GetVarint64(in, &x); },
        "at offset 0, a varint longer than 10 bytes");
  fails("\x02", [](Decoder* in) { bool x; return GetBool(in, &x); }, "at offset 0, a bool of 2");
  std::string big;
  PutVarint64(&big, uint64_t{1} << 32);
  fails(big, [](Decoder* in) { uint32_t x; return GetVarint32(in, &x); }, "at offset 0, a varint over 32 bits");
  std::string count;
  PutVarint64(&count, 3);
  count += "ab";
  fails(count, [](Decoder* in) { uint64_t x; return GetCount(in, &x); },
        "at offset 0, a count of 3 items, more than the 2 bytes left");
  std::string code;
  PutVarint64(&code, 6);  // one past Code::kInternal
  fails(code, [](Decoder* in) { Status s; return GetStatus(in, &s); }, "at offset 0, an enum value 6 out of range");
}

TEST(Coding, AMessageThatDoesNotDecodeThrows) {
  std::string bytes = PackStrings({"a", "b"});
  EXPECT_THROW(UnpackStrings(bytes.substr(0, bytes.size() - 1)), std::logic_error);
  try {
    UnpackStrings(bytes + "x");
    FAIL() << "bytes left over decoded";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "a message that does not decode: a list of messages: at offset 5, 1 bytes left over");
  }
}

}  // namespace
}  // namespace msprobe
