// The hand-written DumpData encoder against the spec's hand-encoded test vector (docs/kernel_dump.md §1.5)
// and against libprotobuf's decoder; the environment parsing helpers.
#include <gtest/gtest.h>

#include "config.h"
#include "dump_data.pb.h"
#include "proto_encoder.h"

namespace msprobe::capture {
namespace {

std::string Hex(const std::string& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

// §1.5 without its output entry (whose original_shape differs from its shape, which the shim never
// writes): version, dump_time, input[0] {DT_FLOAT16, FORMAT_ND, [2,3], 12 bytes}, op_name.
TEST(ProtoEncoder, MatchesTheSpecTestVector) {
  DumpHeader h;
  h.dump_time_us = 1735011096403740;
  h.op_name = "Default/Add-op1";
  h.inputs.push_back({2, 2, {2, 3}, 12});
  EXPECT_EQ(Hex(EncodeDumpHeader(h)),
            "0a03322e30" "109cbed480bcbf8a03"
            "2212" "0802" "1002" "1a040a020203" "280c" "32040a020203"
            "320f44656661756c742f4164642d6f7031");
  EXPECT_EQ(Hex(EncodeHeaderLength(77)), "4d00000000000000");
}

TEST(ProtoEncoder, LibprotobufDecodesEveryField) {
  DumpHeader h;
  h.dump_time_us = 1234567890123456;
  h.op_name = "MatMul_7";
  h.inputs.push_back({1, 2, {8, 16}, 512});
  h.inputs.push_back({27, 29, {}, 2});
  h.outputs.push_back({2, 3, {1, 1, 1, 2, 16}, 64});
  toolkit::dumpdata::DumpData d;
  ASSERT_TRUE(d.ParseFromString(EncodeDumpHeader(h)));
  EXPECT_EQ(d.version(), "2.0");
  EXPECT_EQ(d.dump_time(), 1234567890123456u);
  EXPECT_EQ(d.op_name(), "MatMul_7");
  ASSERT_EQ(d.input_size(), 2);
  ASSERT_EQ(d.output_size(), 1);
  EXPECT_EQ(d.input(0).data_type(), 1);
  EXPECT_EQ(d.input(0).format(), 2);
  EXPECT_EQ(d.input(0).size(), 512u);
  ASSERT_EQ(d.input(0).shape().dim_size(), 2);
  EXPECT_EQ(d.input(0).shape().dim(1), 16u);
  EXPECT_EQ(d.input(0).original_shape().dim(0), 8u);
  EXPECT_EQ(d.input(1).data_type(), 27);
  EXPECT_EQ(d.input(1).format(), 29);
  EXPECT_EQ(d.input(1).shape().dim_size(), 0);
  EXPECT_TRUE(d.input(1).has_shape());
  EXPECT_EQ(d.output(0).data_type(), 2);
  EXPECT_EQ(d.output(0).format(), 3);
  EXPECT_EQ(d.output(0).size(), 64u);
  EXPECT_EQ(d.output(0).shape().dim(4), 16u);
  EXPECT_TRUE(d.output(0).data().empty());
}

TEST(CaptureConfig, IndexRangesAcceptSinglesSpansAndOpenEnds) {
  auto r = IndexRanges::Parse("0,2-3,10-");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->Contains(0));
  EXPECT_FALSE(r->Contains(1));
  EXPECT_TRUE(r->Contains(3));
  EXPECT_FALSE(r->Contains(9));
  EXPECT_TRUE(r->Contains(1ull << 40));
  for (const char* bad : {"", "a", "3-1", "1,,2", "-2", "1-2-3"}) EXPECT_FALSE(IndexRanges::Parse(bad)) << bad;
}

TEST(CaptureConfig, SizesTakeKMGTSuffixes) {
  EXPECT_EQ(ParseSize("4096"), 4096u);
  EXPECT_EQ(ParseSize("64K"), 64u << 10);
  EXPECT_EQ(ParseSize("512M"), 512u << 20);
  EXPECT_EQ(ParseSize("2G"), 2ull << 30);
  EXPECT_EQ(ParseSize("1t"), 1ull << 40);
  for (const char* bad : {"", "M", "1.5G", "-1", "99999999999T"}) EXPECT_FALSE(ParseSize(bad)) << bad;
}

}  // namespace
}  // namespace msprobe::capture
