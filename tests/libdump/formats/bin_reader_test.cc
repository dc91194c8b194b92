// ParseBin on the hand-encoded vector of docs/kernel_dump.md §1.5, corruptions of it, and the malformed
// files gen_bin_fixtures.py encodes with protoc (each named by its defect).
#include "msprobe/dump/formats/bin_reader.h"

#include <gtest/gtest.h>

#include <cstring>

#include "test_support.h"

namespace msprobe {
namespace {

using testing::TestData;

// §1.5: 8-byte length, the 77-byte header, 12 bytes of fp16 0..5, 128 bytes of fp32 NC1HWC0.
std::string Vector() {
  const char* hex =
      "4d00000000000000"
      "0a03322e30109cbed480bcbf8a031a18080110031a070a0501010102103080013a060a04010301022212"
      "080210021a040a020203280c32040a020203320f44656661756c742f4164642d6f7031";
  std::string out;
  for (const char* p = hex; *p; p += 2) out += static_cast<char>(std::stoi(std::string(p, 2), nullptr, 16));
  out.append(12 + 128, '\0');
  return out;
}

Result<BinFile> Parse(const std::string& bytes) { return ParseBin(AsBytes(bytes), "vector.bin"); }

TEST(BinReaderTest, HandEncodedVectorParses) {
  const std::string bytes = Vector();
  ASSERT_EQ(bytes.size(), 225u);
  Result<BinFile> bin = Parse(bytes);
  ASSERT_TRUE(bin.ok()) << bin.status().ToString();
  EXPECT_EQ(bin->version, "2.0");
  EXPECT_EQ(bin->dump_time, 1735011096403740u);
  EXPECT_EQ(bin->op_name, "Default/Add-op1");
  EXPECT_EQ(bin->data_offset, 85u);
  EXPECT_EQ(bin->trailing_bytes, 0u);
  ASSERT_EQ(bin->slots.size(), 2u);
  // The header lists the output first; the data section holds the input first.
  const BinSlot& in = bin->slots[0];
  EXPECT_EQ(in.kind, BinSlotKind::kInput);
  EXPECT_EQ(in.dtype, DType::kF16);
  EXPECT_EQ(in.format, 2);
  EXPECT_EQ(in.device_shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(in.tensor.data_offset, 85u);
  EXPECT_EQ(in.tensor.storage_elements, 6u);
  const BinSlot& out = bin->slots[1];
  EXPECT_EQ(out.kind, BinSlotKind::kOutput);
  EXPECT_EQ(out.dtype, DType::kF32);
  EXPECT_EQ(out.format, 3);
  EXPECT_EQ(out.device_shape, (std::vector<int64_t>{1, 1, 1, 2, 16}));
  EXPECT_EQ(out.original_shape, (std::vector<int64_t>{1, 3, 1, 2}));
  EXPECT_EQ(out.size, 128u);
  EXPECT_EQ(out.tensor.data_offset, 97u);
}

TEST(BinReaderTest, FileShorterThanLengthField) {
  EXPECT_STATUS(Parse(std::string("\x05\x00\x00", 3)), Code::kInvalidInput, "file of 3 bytes is too short");
}

TEST(BinReaderTest, HeaderLongerThanFile) {
  std::string bytes = Vector();
  bytes[0] = '\xff';  // H = 255, 217 bytes follow
  EXPECT_STATUS(Parse(bytes), Code::kInvalidInput, "header length 255 at offset 0 does not fit: 217 bytes follow");
}

TEST(BinReaderTest, ZeroHeaderLength) {
  std::string bytes = Vector();
  bytes[0] = '\0';
  EXPECT_STATUS(Parse(bytes), Code::kInvalidInput, "header length 0");
}

TEST(BinReaderTest, TruncatedDataIsRefusedWhole) {
  const std::string bytes = Vector().substr(0, 200);
  EXPECT_STATUS(Parse(bytes), Code::kInvalidInput,
                "truncated: the header declares data up to offset 225, the file has 200 bytes; incomplete: output 0");
}

TEST(BinReaderTest, TrailingBytesAreCounted) {
  Result<BinFile> bin = Parse(Vector() + "xyz");
  ASSERT_TRUE(bin.ok()) << bin.status().ToString();
  EXPECT_EQ(bin->trailing_bytes, 3u);
}

TEST(BinReaderTest, DimsDisagreeWithDataSize) {
  std::string bytes = Vector();
  const size_t at = bytes.find(std::string("\x30\x80\x01", 3));  // output size 128
  ASSERT_NE(at, std::string::npos);
  bytes[at + 1] = '\xff';  // 0xff 0x01 = 255 (same length, so offsets stay put)
  EXPECT_STATUS(Parse(bytes), Code::kInvalidInput,
                "output 0: device shape [1, 1, 1, 2, 16] of float32 needs 128 bytes, but its size is 255");
}

TEST(BinReaderTest, LengthFieldPastItsMessage) {
  std::string bytes = Vector();
  bytes[23] = '\x7f';  // output 0's length 0x18 → 127, beyond the 77-byte header
  EXPECT_STATUS(Parse(bytes), Code::kInvalidInput, "protobuf field 3 at offset 22 declares 127 bytes");
}

TEST(BinReaderTest, NanoMagicUnsupported) {
  std::string bytes = Vector();
  std::memcpy(bytes.data() + 8, "\x5a\x5a\x5a\x5a", 4);
  EXPECT_STATUS(Parse(bytes), Code::kUnsupported, "nano dump");
}

TEST(BinReaderTest, AtbTextHeaderUnsupported) {
  EXPECT_STATUS(Parse("$Version=1.0\n$End=1\n"), Code::kUnsupported, "ATB tensor .bin");
}

void ExpectMalformed(const std::string& defect, Code code, const std::string& needle) {
  const std::string path = TestData("bin/malformed/Add." + defect + ".1.2.1735011096403740");
  Result<BinFile> bin = ReadBinFile(path);
  EXPECT_STATUS(bin, code, needle);
  EXPECT_EQ(bin.status().source(), path);
}

TEST(BinReaderTest, NegativeSubFormat) {
  ExpectMalformed("negative_sub_format", Code::kInvalidInput, "output 0 has negative sub_format -3");
}
TEST(BinReaderTest, HugeDimsOverflow) {
  ExpectMalformed("huge_dims", Code::kInvalidInput, "has more than 2^63 elements");
}
TEST(BinReaderTest, UnknownDeviceDim) {
  ExpectMalformed("unknown_dim", Code::kInvalidInput, "device shape dim 0 is -1");
}
TEST(BinReaderTest, ZeroDimWithData) {
  ExpectMalformed("zero_dims", Code::kInvalidInput, "[2, 0, 3] of float32 needs 0 bytes, but its size is 8");
}
TEST(BinReaderTest, HeaderPastEndOfFile) {
  ExpectMalformed("header_past_eof", Code::kInvalidInput, "header length 4096");
}
TEST(BinReaderTest, ProtobufLengthPastHeader) {
  ExpectMalformed("bad_protobuf", Code::kInvalidInput, "declares 127 bytes, past the end of its message");
}
TEST(BinReaderTest, NanoFileUnsupported) { ExpectMalformed("nano", Code::kUnsupported, "0x5A5A5A5A"); }

TEST(BinReaderTest, BuffersWorkspacesAndUnknownFields) {
  Result<BinFile> bin = ReadBinFile(TestData("bin/cases/Cast.Default_dtypes-op1.1.2.1735011096403740"));
  ASSERT_TRUE(bin.ok()) << bin.status().ToString();
  ASSERT_EQ(bin->slots.size(), 15u + 7u + 2u);
  const BinSlot& string_slot = bin->slots[15 + 5];
  EXPECT_EQ(string_slot.proto_dtype, 13);  // DT_STRING: kept as a number, no decoder
  EXPECT_FALSE(string_slot.dtype.has_value());
  const BinSlot& buffer = bin->slots[22];
  EXPECT_EQ(buffer.kind, BinSlotKind::kBuffer);
  EXPECT_EQ(buffer.size, 4u);
  EXPECT_EQ(bin->slots[23].kind, BinSlotKind::kWorkspace);
  EXPECT_EQ(bin->slots[23].tensor.data_offset, buffer.tensor.data_offset + 4);
  EXPECT_EQ(bin->trailing_bytes, 0u);
  EXPECT_EQ(bin->slots[15 + 1].dtype, DType::kI4);
  EXPECT_EQ(bin->slots[15 + 1].size, 5u);  // ten nibbles
}

}  // namespace
}  // namespace msprobe
