#include "msprobe/dump/formats/zip_archive.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>

#include "libdump/pt_test_support.h"
#include "test_support.h"

namespace msprobe {
namespace {

using testing::BuildStoredZip;
using testing::ReadFile;
using testing::TestData;
using testing::View;

uint64_t Le(const std::string& s, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t{static_cast<uint8_t>(s[at + i])} << (8 * i);
  return v;
}
void SetLe(std::string* s, size_t at, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) (*s)[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
size_t EndRecordAt(const std::string& s) { return s.rfind(std::string("PK\x05\x06", 4)); }

TEST(ZipArchiveTest, ReadsTorchMembersWithAlignedData) {
  const std::string file = ReadFile(TestData("pt/f32.pt"));
  Result<ZipArchive> zip = ZipArchive::Open(View(file), "f32.pt");
  ASSERT_TRUE(zip.ok()) << zip.status().ToString();
  ASSERT_EQ(zip->entries().size(), 3u);
  EXPECT_EQ(zip->entries()[0].name, "f32/data.pkl");
  EXPECT_EQ(zip->entries()[1].name, "f32/data/0");
  EXPECT_EQ(zip->entries()[2].name, "f32/version");
  const ZipEntry* data = zip->Find("f32/data/0");
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(data->method, 0);
  EXPECT_EQ(data->flags, 0x0808);  // data descriptor + UTF-8 names
  EXPECT_EQ(data->uncompressed_size, 24u);
  EXPECT_EQ(data->data_offset % 64, 0u);
  Result<Bytes> bytes = zip->Data(*data);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(LoadLittleEndian<float>(bytes->data()), 1.5f);  // t[0][0] in gen_pt_fixtures.py
  Result<Bytes> version = zip->Data(*zip->Find("f32/version"));
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(AsChars(*version), "3\n");
  EXPECT_EQ(zip->Find("f32/absent"), nullptr);
}

TEST(ZipArchiveTest, DataOffsetComesFromLocalHeaderExtra) {
  // torch pads with an "FB" extra field in the local header only; the central extra is empty.
  const std::string file = ReadFile(TestData("pt/f32.pt"));
  Result<ZipArchive> zip = ZipArchive::Open(View(file), "f32.pt");
  ASSERT_TRUE(zip.ok());
  const ZipEntry& e = zip->entries()[1];
  const uint64_t local_extra = Le(file, e.local_header_offset + 28, 2);
  EXPECT_GT(local_extra, 0u);
  EXPECT_EQ(e.data_offset, e.local_header_offset + 30 + e.name.size() + local_extra);
  EXPECT_EQ(file.substr(e.local_header_offset + 30 + e.name.size(), 2), "FB");
}

TEST(ZipArchiveTest, Zip64EndRecordAndExtraFields) {
  const std::string file = ReadFile(TestData("pt/zip64.pt"));
  // The classic end record is saturated, so the values must come from the zip64 records.
  EXPECT_EQ(Le(file, EndRecordAt(file) + 10, 2), 0xffffu);
  Result<ZipArchive> zip = ZipArchive::Open(View(file), "zip64.pt");
  ASSERT_TRUE(zip.ok()) << zip.status().ToString();
  ASSERT_EQ(zip->entries().size(), 4u);
  const ZipEntry* data = zip->Find("zip64/data/0");
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(data->compressed_size, 24u);
  EXPECT_EQ(data->uncompressed_size, 24u);
  EXPECT_GT(data->local_header_offset, 0u);
  EXPECT_EQ(data->data_offset % 64, 0u);
  Result<Bytes> bytes = zip->Data(*data);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(LoadLittleEndian<float>(bytes->data()), 1.5f);
}

TEST(ZipArchiveTest, CompressedMemberIsUnsupported) {
  const std::string file = ReadFile(TestData("pt/compressed.pt"));
  Result<ZipArchive> zip = ZipArchive::Open(View(file), "compressed.pt");
  ASSERT_TRUE(zip.ok()) << zip.status().ToString();
  const ZipEntry* data = zip->Find("compressed/data/0");
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(data->method, 8);
  EXPECT_STATUS(zip->Data(*data), Code::kUnsupported, "'compressed/data/0' is compressed (method 8)");
  EXPECT_TRUE(zip->Data(*zip->Find("compressed/data.pkl")).ok());
}

TEST(ZipArchiveTest, EmptyArchiveHasNoEntries) {
  const std::string file = BuildStoredZip({});
  Result<ZipArchive> zip = ZipArchive::Open(View(file), "empty.zip");
  ASSERT_TRUE(zip.ok()) << zip.status().ToString();
  EXPECT_TRUE(zip->entries().empty());
}

TEST(ZipArchiveTest, TrailingCommentIsSkipped) {
  std::string file = BuildStoredZip({{"a/x", "hello"}});
  SetLe(&file, EndRecordAt(file) + 20, 7, 2);
  file += "comment";
  Result<ZipArchive> zip = ZipArchive::Open(View(file), "c.zip");
  ASSERT_TRUE(zip.ok()) << zip.status().ToString();
  EXPECT_EQ(AsChars(*zip->Data(zip->entries()[0])), "hello");
}

TEST(ZipArchiveTest, FileTooSmall) {
  EXPECT_STATUS(ZipArchive::Open(View("PK\x03\x04"), "tiny.zip"), Code::kInvalidInput,
                "file of 4 bytes is too small for a zip archive");
}

TEST(ZipArchiveTest, EndRecordMissing) {
  std::string file = ReadFile(TestData("pt/f32.pt"));
  file.resize(EndRecordAt(file));
  EXPECT_STATUS(ZipArchive::Open(View(file), "f32.pt"), Code::kInvalidInput,
                "end of central directory record not found");
}

// torch (1.13 included) always writes a zip64 end record, whose values win over the classic ones.
size_t End64At(const std::string& s) { return EndRecordAt(s) - 20 - 56; }
size_t CentralDirectoryAt(const std::string& s) { return Le(s, End64At(s) + 48, 8); }

TEST(ZipArchiveTest, TorchWritesZip64EndRecord) {
  const std::string file = ReadFile(TestData("pt/f32.pt"));
  EXPECT_EQ(Le(file, End64At(file), 4), 0x06064b50u);
  EXPECT_EQ(CentralDirectoryAt(file), Le(file, EndRecordAt(file) + 16, 4));
}

TEST(ZipArchiveTest, CentralDirectoryPastEndOfFile) {
  std::string file = ReadFile(TestData("pt/f32.pt"));
  SetLe(&file, End64At(file) + 48, file.size() + 10, 8);
  EXPECT_STATUS(ZipArchive::Open(View(file), "f32.pt"), Code::kInvalidInput,
                "central directory of 171 bytes at offset " + std::to_string(file.size() + 10) +
                    " runs past the end of the file");
}

TEST(ZipArchiveTest, ClassicCentralDirectoryPastEndOfFile) {
  std::string file = BuildStoredZip({{"a/x", "hello"}});
  SetLe(&file, EndRecordAt(file) + 16, 0xfffffff0u, 4);
  EXPECT_STATUS(ZipArchive::Open(View(file), "a.zip"), Code::kInvalidInput,
                "central directory of 49 bytes at offset 4294967280 runs past the end of the file");
}

TEST(ZipArchiveTest, CentralDirectoryTooShortForItsEntries) {
  std::string file = ReadFile(TestData("pt/f32.pt"));
  SetLe(&file, End64At(file) + 40, 50, 8);
  EXPECT_STATUS(ZipArchive::Open(View(file), "f32.pt"), Code::kInvalidInput,
                "end record declares 3 entries but the central directory has only 50 bytes");
}

TEST(ZipArchiveTest, TruncatedCentralDirectory) {
  // Room for three fixed headers but not for their names: the last entry runs out.
  std::string file = ReadFile(TestData("pt/f32.pt"));
  SetLe(&file, End64At(file) + 40, 3 * 46 + 20, 8);
  EXPECT_STATUS(ZipArchive::Open(View(file), "f32.pt"), Code::kInvalidInput, "central directory entry 2 at offset");
  // Cutting the file inside the directory loses the end records altogether.
  file.resize(CentralDirectoryAt(file) + 60);
  EXPECT_STATUS(ZipArchive::Open(View(file), "f32.pt"), Code::kInvalidInput,
                "end of central directory record not found");
}

TEST(ZipArchiveTest, BadCentralSignature) {
  std::string file = ReadFile(TestData("pt/f32.pt"));
  const size_t cd = CentralDirectoryAt(file);
  file[cd] = 'X';
  EXPECT_STATUS(ZipArchive::Open(View(file), "f32.pt"), Code::kInvalidInput,
                "central directory entry 0 at offset " + std::to_string(cd) + " has signature");
}

TEST(ZipArchiveTest, LocalHeaderOffsetPastEndOfFile) {
  std::string file = ReadFile(TestData("pt/f32.pt"));
  const size_t cd = CentralDirectoryAt(file);
  SetLe(&file, cd + 42, 0x7fffffff, 4);
  EXPECT_STATUS(ZipArchive::Open(View(file), "f32.pt"), Code::kInvalidInput,
                "entry 'f32/data.pkl': local header at offset 2147483647 runs past the end");
}

TEST(ZipArchiveTest, LocalHeaderWithBadSignature) {
  std::string file = ReadFile(TestData("pt/f32.pt"));
  file[0] = 'Q';
  EXPECT_STATUS(ZipArchive::Open(View(file), "f32.pt"), Code::kInvalidInput,
                "entry 'f32/data.pkl': local header at offset 0 has signature");
}

TEST(ZipArchiveTest, MemberSizePastEndOfFile) {
  std::string file = ReadFile(TestData("pt/f32.pt"));
  const size_t cd = CentralDirectoryAt(file);
  SetLe(&file, cd + 20, 1u << 30, 4);  // compressed size of the first entry
  EXPECT_STATUS(ZipArchive::Open(View(file), "f32.pt"), Code::kInvalidInput,
                "entry 'f32/data.pkl': 1073741824 bytes of data at offset 64 run past the end");
}

TEST(ZipArchiveTest, Zip64LocatorPointingOutsideTheFile) {
  std::string file = ReadFile(TestData("pt/zip64.pt"));
  const size_t locator = EndRecordAt(file) - 20;
  SetLe(&file, locator + 8, file.size() * 2, 8);
  EXPECT_STATUS(ZipArchive::Open(View(file), "zip64.pt"), Code::kInvalidInput, "zip64 locator at offset");
}

TEST(ZipArchiveTest, Zip64ExtraFieldTooShort) {
  std::string file = ReadFile(TestData("pt/zip64.pt"));
  const size_t cd = CentralDirectoryAt(file);
  // The first entry's zip64 extra says 24 bytes; claim only 8 (its total length stays consistent
  // because the following 16 bytes become a second, unknown field).
  const size_t extra = cd + 46 + std::string("zip64/data.pkl").size();
  ASSERT_EQ(Le(file, extra, 2), 1u);
  SetLe(&file, extra + 2, 8, 2);
  SetLe(&file, extra + 12, 0x9999, 2);
  SetLe(&file, extra + 14, 12, 2);
  EXPECT_STATUS(ZipArchive::Open(View(file), "zip64.pt"), Code::kInvalidInput,
                "zip64 extra field of 8 bytes lacks the compressed size");
}

// A local header must name the member its central directory entry names: otherwise an entry could
// hand out another member's bytes.
TEST(ZipArchiveTest, LocalHeaderNamingAnotherMemberIsRefused) {
  std::string file = ReadFile(TestData("pt/f32.pt"));
  ASSERT_EQ(file.substr(30, 12), "f32/data.pkl");
  file[30 + 4] = 'D';  // the first local header now names "f32/Data.pkl"
  EXPECT_STATUS(ZipArchive::Open(View(file), "f32.pt"), Code::kInvalidInput,
                "entry 'f32/data.pkl': its local header at offset 0 names 'f32/Data.pkl'");
}

// An inflated member whose bytes do not have the recorded CRC-32 (here the record is changed; a
// flipped bit in the data is the same to the check) is an error once its last chunk is out.
TEST(ZipArchiveTest, InflatedMemberWithTheWrongCrcIsAnError) {
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  GTEST_SKIP() << "fuzzing builds do not check CRCs";
#endif
  std::string file = ReadFile(TestData("merge/handmade.xlsx"));  // written by Python's zipfile (openpyxl)
  auto intact = ZipArchive::Open(View(file), "handmade.xlsx");
  ASSERT_TRUE(intact.ok());
  const ZipEntry first = intact->entries().front();
  ASSERT_TRUE(intact->ReadMember(first, 1 << 24).ok());
  const size_t cd = Le(file, EndRecordAt(file) + 16, 4);  // no zip64 records here
  SetLe(&file, cd + 16, first.crc32 ^ 1, 4);
  auto changed = ZipArchive::Open(View(file), "handmade.xlsx");
  ASSERT_TRUE(changed.ok());
  EXPECT_STATUS(changed->ReadMember(changed->entries().front(), 1 << 24), Code::kInvalidInput,
                fmt::format("member '{}': CRC-32 {:08x} of its bytes, the directory records {:08x}", first.name,
                            first.crc32, first.crc32 ^ 1));
}

}  // namespace
}  // namespace msprobe
