#include "msprobe/dump/formats/npy_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "msprobe/dump/formats/npy_reader.h"
#include "msprobe/dump/tensor/tensor_source.h"
#include "test_support.h"

// The reference files are tests/data/npy/*.npy, written by numpy.save (tests/data/gen_npy_fixtures.py).
// Every case writes the same dtype, shape and element bytes and expects numpy's exact file.

namespace msprobe {
namespace {

using testing::ReadFile;
using testing::TempDir;
using testing::TestData;

// A numpy-written version 1.0 file split into what the writer is given: dtype, shape and data.
struct NumpyFile {
  std::string bytes;
  DType dtype = DType::kF32;
  std::vector<int64_t> shape;
  std::string data;  // the element bytes after the header
};

// Decodes just enough of numpy's header by hand (the test must not trust the reader it checks):
// the 2-byte header length at offset 8, and the descr and shape the fixture was written with.
NumpyFile LoadNumpy(const std::string& name, DType dtype, std::vector<int64_t> shape) {
  NumpyFile f;
  f.bytes = ReadFile(TestData("npy/" + name));
  EXPECT_GE(f.bytes.size(), 10u) << name;
  if (f.bytes.size() < 10) return f;
  const size_t header_length = static_cast<uint8_t>(f.bytes[8]) | (static_cast<uint8_t>(f.bytes[9]) << 8);
  f.dtype = dtype;
  f.shape = std::move(shape);
  f.data = f.bytes.substr(10 + header_length);
  return f;
}

struct Case {
  const char* name;
  DType dtype;
  std::vector<int64_t> shape;
};

// Every numpy-written C-order version 1.0 fixture, with the dtype and shape gen_npy_fixtures.py gave it.
const std::vector<Case>& NumpyCases() {
  static const std::vector<Case> kCases = {
      {"bool.npy", DType::kBool, {2, 3}},          {"uint8.npy", DType::kU8, {2, 3}},
      {"int8.npy", DType::kI8, {2, 3}},            {"int16.npy", DType::kI16, {2, 3}},
      {"uint16.npy", DType::kU16, {2, 3}},         {"int32.npy", DType::kI32, {2, 3}},
      {"uint32.npy", DType::kU32, {2, 3}},         {"int64.npy", DType::kI64, {2, 3}},
      {"uint64.npy", DType::kU64, {2, 3}},         {"float16.npy", DType::kF16, {2, 3}},
      {"float32.npy", DType::kF32, {2, 3}},        {"float64.npy", DType::kF64, {2, 3}},
      {"complex64.npy", DType::kC64, {2, 3}},      {"complex128.npy", DType::kC128, {2, 3}},
      {"scalar_f8.npy", DType::kF64, {}},          {"scalar_b1.npy", DType::kBool, {}},
      {"vec_i4_5.npy", DType::kI32, {5}},          {"empty_f4_0.npy", DType::kF32, {0}},
      {"empty_i4_2x0x3.npy", DType::kI32, {2, 0, 3}}, {"grid_f4_16x16.npy", DType::kF32, {16, 16}},
      {"pad64_u1.npy", DType::kU8, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 100}},
  };
  return kCases;
}

bool DirectoryIsEmpty(const TempDir& dir) { return std::filesystem::is_empty(dir.root()); }

TEST(NpyWriterTest, ByteIdenticalToNumpyForEveryDtype) {
  TempDir dir;
  for (const Case& c : NumpyCases()) {
    SCOPED_TRACE(c.name);
    const NumpyFile want = LoadNumpy(c.name, c.dtype, c.shape);
    const std::string path = dir.Path(c.name);
    const Status st = WriteNpy(path, want.dtype, want.shape, AsBytes(want.data));
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(ReadFile(path), want.bytes);
  }
}

TEST(NpyWriterTest, HeaderOnFullPadBoundaryMatchesNumpy) {
  // numpy pads with a whole 64-byte block when the text already ends on the boundary.
  TempDir dir;
  const NumpyFile want = LoadNumpy("pad64_u1.npy", DType::kU8, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 100});
  ASSERT_TRUE(WriteNpy(dir.Path("p.npy"), want.dtype, want.shape, AsBytes(want.data)).ok());
  const std::string got = ReadFile(dir.Path("p.npy"));
  EXPECT_EQ(got.size(), 192u + 100u);
  EXPECT_EQ(got, want.bytes);
}

TEST(NpyWriterTest, RoundTripThroughReaderKeepsElements) {
  TempDir dir;
  for (const Case& c : NumpyCases()) {
    SCOPED_TRACE(c.name);
    const NumpyFile want = LoadNumpy(c.name, c.dtype, c.shape);
    const std::string path = dir.Path(c.name);
    ASSERT_TRUE(WriteNpy(path, want.dtype, want.shape, AsBytes(want.data)).ok());
    Result<TensorInfo> info = ReadNpyFile(path);
    ASSERT_TRUE(info.ok()) << info.status().ToString();
    EXPECT_EQ(info->dtype, c.dtype);
    EXPECT_EQ(info->shape, c.shape);
    EXPECT_TRUE(info->strides.empty());
    Result<TensorSource> source = TensorSource::Open(*info);
    ASSERT_TRUE(source.ok()) << source.status().ToString();
    ASSERT_EQ(source->numel(), info->Numel());
    if (source->numel() == 0) {
      EXPECT_TRUE(want.data.empty());
      continue;
    }
    ElementWindow window;
    ASSERT_TRUE(source->Read(0, source->numel(), &window).ok());
    EXPECT_EQ(std::string(AsChars(window.bytes())), want.data);
  }
}

TEST(NpyWriterTest, StreamedChunksMatchNumpy) {
  TempDir dir;
  const NumpyFile want = LoadNumpy("grid_f4_16x16.npy", DType::kF32, {16, 16});
  Result<NpyWriter> writer = NpyWriter::Create(dir.Path("grid.npy"), DType::kF32, {16, 16});
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  // Uneven chunks: 1, 2, 3, ... elements.
  size_t offset = 0;
  for (size_t n = 1; offset < want.data.size(); ++n) {
    const size_t bytes = std::min(n * 4, want.data.size() - offset);
    ASSERT_TRUE(writer->Append(AsBytes(std::string_view(want.data).substr(offset, bytes))).ok());
    offset += bytes;
  }
  EXPECT_EQ(writer->appended(), 256u);
  EXPECT_FALSE(std::filesystem::exists(dir.Path("grid.npy")));  // nothing under the final name yet
  ASSERT_TRUE(writer->Finish().ok());
  EXPECT_EQ(ReadFile(dir.Path("grid.npy")), want.bytes);
}

TEST(NpyWriterTest, FinishWithTooFewElementsLeavesNoFile) {
  TempDir dir;
  const NumpyFile want = LoadNumpy("float32.npy", DType::kF32, {2, 3});
  Result<NpyWriter> writer = NpyWriter::Create(dir.Path("short.npy"), DType::kF32, {2, 3});
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE(writer->Append(AsBytes(std::string_view(want.data).substr(0, 20))).ok());
  EXPECT_STATUS(writer->Finish(), Code::kInvalidInput, "got 5 of the 6 elements of shape [2, 3]; file not written");
  EXPECT_FALSE(std::filesystem::exists(dir.Path("short.npy")));
  EXPECT_TRUE(DirectoryIsEmpty(dir));  // the temporary file is gone too
}

TEST(NpyWriterTest, AppendPastTheShapeIsRefused) {
  TempDir dir;
  const std::string seven(7 * 4, '\0');
  Result<NpyWriter> writer = NpyWriter::Create(dir.Path("long.npy"), DType::kF32, {2, 3});
  ASSERT_TRUE(writer.ok());
  EXPECT_STATUS(writer->Append(AsBytes(seven)), Code::kInvalidInput, "appended 7 elements after 0, shape [2, 3] has 6");
  EXPECT_STATUS(writer->Finish(), Code::kInvalidInput, "got 0 of the 6 elements");
  EXPECT_TRUE(DirectoryIsEmpty(dir));
}

TEST(NpyWriterTest, AppendOfPartialElementIsRefused) {
  TempDir dir;
  Result<NpyWriter> writer = NpyWriter::Create(dir.Path("odd.npy"), DType::kF64, {3});
  ASSERT_TRUE(writer.ok());
  EXPECT_STATUS(writer->Append(AsBytes(std::string(12, '\0'))), Code::kInvalidInput,
                "appended 12 bytes, not a whole number of 8-byte float64 elements");
}

TEST(NpyWriterTest, WriteNpyWithWrongByteCountLeavesNoFile) {
  TempDir dir;
  EXPECT_STATUS(WriteNpy(dir.Path("w.npy"), DType::kI16, {4}, AsBytes(std::string(6, '\0'))), Code::kInvalidInput,
                "got 3 of the 4 elements");
  EXPECT_TRUE(DirectoryIsEmpty(dir));
}

TEST(NpyWriterTest, FinishTwiceIsAnInternalError) {
  TempDir dir;
  Result<NpyWriter> writer = NpyWriter::Create(dir.Path("e.npy"), DType::kU8, {0});
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE(writer->Finish().ok());
  EXPECT_STATUS(writer->Finish(), Code::kInternal, "called twice");
  EXPECT_STATUS(writer->Append(Bytes{}), Code::kInternal, "after Finish");
}

TEST(NpyWriterTest, DtypesWithoutNumpyDescrAreUnsupported) {
  TempDir dir;
  for (DType t : {DType::kBF16, DType::kI4, DType::kF8E4M3FN, DType::kF8E5M2, DType::kHiF8, DType::kC32}) {
    SCOPED_TRACE(std::string(Name(t)));
    EXPECT_STATUS(NpyWriter::Create(dir.Path("x.npy"), t, {2}), Code::kUnsupported, "has no numpy descr");
  }
  EXPECT_TRUE(DirectoryIsEmpty(dir));
}

TEST(NpyWriterTest, NegativeDimensionIsRefused) {
  TempDir dir;
  EXPECT_STATUS(NpyWriter::Create(dir.Path("n.npy"), DType::kF32, {2, -1}), Code::kInvalidInput,
                "negative dimension in shape [2, -1]");
  EXPECT_TRUE(DirectoryIsEmpty(dir));
}

TEST(NpyWriterTest, UnwritableDirectoryIsAnIOError) {
  TempDir dir;
  EXPECT_STATUS(NpyWriter::Create(dir.Path("missing/dir/x.npy"), DType::kF32, {1}), Code::kIOError, "cannot create");
}

}  // namespace
}  // namespace msprobe
