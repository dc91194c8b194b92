#include "msprobe/dump/formats/npy_reader.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <string>
#include <type_traits>

#include "msprobe/dump/tensor/element_types.h"
#include "msprobe/dump/tensor/tensor_source.h"
#include "test_support.h"

// Fixtures: tests/data/npy/*.npy and expected.json, written by tests/data/gen_npy_fixtures.py with
// numpy 1.24; expected.json holds numpy's own reading of every file (descr, shape, values in C order).

namespace msprobe {
namespace {

using testing::ReadFile;
using testing::TestData;

const rapidjson::Document& Expected() {
  static const rapidjson::Document* doc = [] {
    auto* d = new rapidjson::Document;
    const std::string text = ReadFile(TestData("npy/expected.json"));
    d->Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseNanAndInfFlag>(text.c_str());
    return d;
  }();
  return *doc;
}

const rapidjson::Value& ExpectedFor(const std::string& name) {
  static const rapidjson::Value kNull;
  const rapidjson::Document& doc = Expected();
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember(name.c_str())) {
    ADD_FAILURE() << "expected.json has no entry " << name;
    return kNull;
  }
  return doc[name.c_str()];
}

// Equal as numpy recorded it: NaN matches NaN, and the sign of zero counts.
void ExpectSameDouble(double got, double want, const std::string& where) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << where << ": got " << got;
    return;
  }
  EXPECT_EQ(got, want) << where;
  EXPECT_EQ(std::signbit(got), std::signbit(want)) << where << ": sign of " << got;
}

template <class T>
void ExpectElement(const std::byte* p, const rapidjson::Value& want, const std::string& where) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  if constexpr (std::is_same_v<T, bool>) {
    ASSERT_TRUE(want.IsBool()) << where;
    EXPECT_EQ(v, want.GetBool()) << where;
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    ASSERT_TRUE(want.IsInt64()) << where;
    EXPECT_EQ(static_cast<int64_t>(v), want.GetInt64()) << where;
  } else if constexpr (std::is_integral_v<T>) {
    ASSERT_TRUE(want.IsUint64()) << where;
    EXPECT_EQ(static_cast<uint64_t>(v), want.GetUint64()) << where;
  } else if constexpr (std::is_same_v<T, Float16> || std::is_floating_point_v<T>) {
    ASSERT_TRUE(want.IsNumber()) << where;
    ExpectSameDouble(ToDouble(v), want.GetDouble(), where);
  } else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
    ASSERT_TRUE(want.IsArray() && want.Size() == 2) << where;
    ExpectSameDouble(v.real(), want[0].GetDouble(), where + " (real)");
    ExpectSameDouble(v.imag(), want[1].GetDouble(), where + " (imag)");
  } else {
    ADD_FAILURE() << where << ": dtype has no numpy descr";
  }
}

// Reads every element through TensorSource, in windows of 5 so window edges are crossed, and
// compares them with numpy's values.
void ExpectValues(const TensorInfo& info, const rapidjson::Value& values) {
  Result<TensorSource> source = TensorSource::Open(info);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  ASSERT_TRUE(values.IsArray());
  ASSERT_EQ(source->numel(), values.Size());
  const size_t item = Info(info.dtype).bits / 8;
  ElementWindow window;
  constexpr uint64_t kWindow = 5;
  for (uint64_t first = 0; first < source->numel(); first += kWindow) {
    const uint64_t count = std::min(kWindow, source->numel() - first);
    ASSERT_TRUE(source->Read(first, count, &window).ok());
    ASSERT_EQ(window.bytes().size(), count * item);
    for (uint64_t i = 0; i < count; ++i) {
      const std::string where = info.path + " element " + std::to_string(first + i);
      VisitDType(info.dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        ExpectElement<T>(window.bytes().data() + i * item, values[static_cast<rapidjson::SizeType>(first + i)], where);
      });
    }
  }
}

// Checks the TensorInfo of `path` against numpy's record `name` and compares its values.
void ExpectMatchesNumpy(const std::string& path, const std::string& name) {
  SCOPED_TRACE(name);
  const rapidjson::Value& want = ExpectedFor(name);
  ASSERT_TRUE(want.IsObject());
  Result<TensorInfo> info = ReadNpyFile(path);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->path, path);
  const std::string descr = want["descr"].GetString();
  EXPECT_EQ(Info(info->dtype).npy_descr.substr(1), descr.substr(1));
  EXPECT_EQ(info->big_endian, descr[0] == '>');
  std::vector<int64_t> shape;
  for (const auto& d : want["shape"].GetArray()) shape.push_back(d.GetInt64());
  EXPECT_EQ(info->shape, shape);
  EXPECT_EQ(info->storage_elements, info->Numel());
  EXPECT_EQ(info->data_offset % 64, 0u);  // numpy aligns the data
  if (want["fortran_order"].GetBool() && info->Numel() > 0) {
    EXPECT_FALSE(info->strides.empty());
  } else {
    EXPECT_TRUE(info->IsContiguous());
  }
  ExpectValues(*info, want["values"]);
}

void ExpectFixture(const std::string& name) { ExpectMatchesNumpy(TestData("npy/" + name), name); }

// The bytes of a numpy-written fixture.
std::string Fixture(const std::string& name) { return ReadFile(TestData("npy/" + name)); }

// An .npy file from a hand-written header dict, padded as numpy pads it.
std::string MakeNpy(std::string_view dict, std::string_view data, int major = 1) {
  const size_t preamble = major == 1 ? 10 : 12;
  std::string header(dict);
  header.append(63 - (preamble + header.size()) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  for (size_t i = 0; i < (major == 1 ? 2u : 4u); ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return out + header + std::string(data);
}

// The six float32 elements of float32.npy (its header is 128 bytes).
std::string Float32Data() { return Fixture("float32.npy").substr(128); }

// One corruption helper for the bad-input cases: overwrite bytes at `offset`.
std::string Corrupt(std::string bytes, size_t offset, std::string_view replacement) {
  if (offset + replacement.size() > bytes.size()) {
    ADD_FAILURE() << "corruption at " << offset << " is past the end of " << bytes.size() << " bytes";
    return bytes;
  }
  std::copy(replacement.begin(), replacement.end(), bytes.begin() + static_cast<std::ptrdiff_t>(offset));
  return bytes;
}

Result<TensorInfo> Parse(const std::string& bytes) { return ParseNpy(AsBytes(bytes), "bad.npy"); }

TEST(NpyReaderTest, LittleEndianDtypesMatchNumpy) {
  for (const char* name : {"bool.npy", "uint8.npy", "int8.npy", "int16.npy", "uint16.npy", "int32.npy", "uint32.npy",
                           "int64.npy", "uint64.npy", "float16.npy", "float32.npy", "float64.npy", "complex64.npy",
                           "complex128.npy"}) {
    ExpectFixture(name);
  }
}

TEST(NpyReaderTest, BigEndianDtypesMatchNumpy) {
  for (const char* name : {"int16_be.npy", "uint16_be.npy", "int32_be.npy", "uint32_be.npy", "int64_be.npy",
                           "uint64_be.npy", "float16_be.npy", "float32_be.npy", "float64_be.npy", "complex64_be.npy",
                           "complex128_be.npy"}) {
    ExpectFixture(name);
  }
}

TEST(NpyReaderTest, FortranOrder2DReadsInCOrder) {
  ExpectFixture("fortran_f4_3x4.npy");
  Result<TensorInfo> info = ReadNpyFile(TestData("npy/fortran_f4_3x4.npy"));
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->strides, (std::vector<int64_t>{1, 3}));
}

TEST(NpyReaderTest, FortranOrder3DReadsInCOrder) {
  ExpectFixture("fortran_i2_2x3x4.npy");
  Result<TensorInfo> info = ReadNpyFile(TestData("npy/fortran_i2_2x3x4.npy"));
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->strides, (std::vector<int64_t>{1, 2, 6}));
}

TEST(NpyReaderTest, FortranOrderBigEndianReadsInCOrder) { ExpectFixture("fortran_f8_be_2x3.npy"); }

TEST(NpyReaderTest, ZeroDimArraysHaveEmptyShape) {
  ExpectFixture("scalar_f8.npy");
  ExpectFixture("scalar_b1.npy");
}

TEST(NpyReaderTest, OneTupleShape) { ExpectFixture("vec_i4_5.npy"); }

TEST(NpyReaderTest, EmptyArraysHaveNoElements) {
  ExpectFixture("empty_f4_0.npy");
  ExpectFixture("empty_i4_2x0x3.npy");
}

TEST(NpyReaderTest, Version2HeaderHasFourByteLength) {
  ExpectFixture("v2_f4.npy");
  Result<TensorInfo> info = ReadNpyFile(TestData("npy/v2_f4.npy"));
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->data_offset, 128u);
}

TEST(NpyReaderTest, Version3HeaderIsRead) { ExpectFixture("v3_i8.npy"); }

TEST(NpyReaderTest, HeaderPaddedWithFullAlignmentBlock) { ExpectFixture("pad64_u1.npy"); }

TEST(NpyReaderTest, LargerArrayCrossesManyWindows) { ExpectFixture("grid_f4_16x16.npy"); }

TEST(NpyReaderTest, ParseNpyTakesBytesAndNamesTheSource) {
  const std::string bytes = Fixture("int32.npy");
  Result<TensorInfo> info = ParseNpy(AsBytes(bytes), "in-memory.npy");
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->path, "in-memory.npy");
  EXPECT_EQ(info->dtype, DType::kI32);
  EXPECT_EQ(info->data_offset, 128u);
  EXPECT_EQ(info->storage_elements, 6u);
}

TEST(NpyReaderTest, KeysInAnyOrderWithLooseSpacingAndTrailingCommas) {
  const std::string bytes =
      MakeNpy("{ 'shape' : ( 2 ,\t3 , ) ,\n 'fortran_order':False,\"descr\":   '<f4',  }", Float32Data());
  testing::TempDir dir;
  testing::WriteFile(dir.Path("loose.npy"), bytes);
  ExpectMatchesNumpy(dir.Path("loose.npy"), "float32.npy");
}

TEST(NpyReaderTest, DictWithoutTrailingCommaAndPython2Longs) {
  testing::TempDir dir;
  testing::WriteFile(dir.Path("py2.npy"),
                     MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L)}", Float32Data()));
  ExpectMatchesNumpy(dir.Path("py2.npy"), "float32.npy");
}

TEST(NpyReaderTest, NativeAndNoOrderDescrs) {
  for (const char* descr : {"=f4", "|f4"}) {
    const std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (2, 3), }";
    Result<TensorInfo> info = Parse(MakeNpy(dict, Float32Data()));
    ASSERT_TRUE(info.ok()) << descr << ": " << info.status().ToString();
    EXPECT_EQ(info->dtype, DType::kF32);
    EXPECT_FALSE(info->big_endian);
  }
}

TEST(NpyReaderTest, BytesAfterTheDataAreIgnored) {
  Result<TensorInfo> info = Parse(Fixture("float32.npy") + "trailing");
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->storage_elements, 6u);
}

TEST(NpyReaderTest, SharedSampleFloat32) {
  MSP_REQUIRE_SHARED(path, "msprobe_samples/pt_npy/f32.npy");
  ExpectMatchesNumpy(path, "shared/f32.npy");
}

TEST(NpyReaderTest, SharedSampleBool) {
  MSP_REQUIRE_SHARED(path, "msprobe_samples/pt_npy/b.npy");
  ExpectMatchesNumpy(path, "shared/b.npy");
}

TEST(NpyReaderTest, SharedSampleZeroDimFloat16) {
  MSP_REQUIRE_SHARED(path, "msprobe_samples/pt_npy/scalar.npy");
  ExpectMatchesNumpy(path, "shared/scalar.npy");
}

TEST(NpyReaderTest, SharedSampleStringArrayIsUnsupported) {
  MSP_REQUIRE_SHARED(path, "msprobe_samples/pt_npy/str.npy");
  EXPECT_STATUS(ReadNpyFile(path), Code::kUnsupported, "'<U3'");
}

// ---- bad input: each defect gets its own message ----

TEST(NpyReaderTest, WrongMagic) {
  EXPECT_STATUS(Parse(Corrupt(Fixture("float32.npy"), 1, "X")), Code::kInvalidInput, "not an npy file: bad magic");
}

TEST(NpyReaderTest, FileShorterThanPreamble) {
  EXPECT_STATUS(Parse(Fixture("float32.npy").substr(0, 9)), Code::kInvalidInput,
                "file has 9 bytes, too short for an npy header");
}

TEST(NpyReaderTest, TruncatedHeader) {
  EXPECT_STATUS(Parse(Fixture("float32.npy").substr(0, 40)), Code::kInvalidInput,
                "header declares 118 bytes at offset 10, file has 30 left");
}

TEST(NpyReaderTest, HeaderLengthPastEndOfFile) {
  EXPECT_STATUS(Parse(Corrupt(Fixture("float32.npy"), 8, "\xff\xff")), Code::kInvalidInput,
                "header declares 65535 bytes at offset 10, file has 142 left");
}

TEST(NpyReaderTest, AbsurdVersion2HeaderLength) {
  EXPECT_STATUS(Parse(Corrupt(Fixture("v2_f4.npy"), 8, "\xff\xff\xff\xff")), Code::kInvalidInput,
                "header declares 4294967295 bytes at offset 12");
}

TEST(NpyReaderTest, ZeroHeaderLength) {
  EXPECT_STATUS(Parse(Corrupt(Fixture("float32.npy"), 8, std::string("\0\0", 2))), Code::kInvalidInput,
                "empty npy header at offset 10");
}

TEST(NpyReaderTest, UnknownVersionIsUnsupported) {
  EXPECT_STATUS(Parse(Corrupt(Fixture("float32.npy"), 6, "\x04")), Code::kUnsupported, "npy format version 4.0");
  EXPECT_STATUS(Parse(Corrupt(Fixture("float32.npy"), 7, "\x01")), Code::kUnsupported, "npy format version 1.1");
}

TEST(NpyReaderTest, MissingKey) {
  // Blank out "'fortran_order': False, " in place so every offset stays put.
  const std::string bytes = Fixture("float32.npy");
  const size_t at = bytes.find("'fortran_order': False, ");
  ASSERT_NE(at, std::string::npos);
  EXPECT_STATUS(Parse(Corrupt(bytes, at, std::string(24, ' '))), Code::kInvalidInput, "header has no 'fortran_order' key");
}

TEST(NpyReaderTest, UnknownKey) {
  const std::string bytes = Fixture("float32.npy");
  EXPECT_STATUS(Parse(Corrupt(bytes, bytes.find("'shape'"), "'shapx'")), Code::kInvalidInput,
                "unexpected key 'shapx' at offset 51");
}

TEST(NpyReaderTest, DuplicateKey) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}",
                              Float32Data())),
                Code::kInvalidInput, "duplicate key 'descr' at offset 27");
}

TEST(NpyReaderTest, BadBoolLiteral) {
  const std::string bytes = Fixture("float32.npy");
  EXPECT_STATUS(Parse(Corrupt(bytes, bytes.find("False"), "Flase")), Code::kInvalidInput,
                "expected True or False for 'fortran_order' at offset 44, found 'F'");
}

TEST(NpyReaderTest, UnbalancedQuotes) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<f4, 'fortran_order': False, 'shape': (2, 3)}", Float32Data())),
                Code::kInvalidInput, "expected ',' or '}' after a header value at offset 27, found 'f'");
}

TEST(NpyReaderTest, UnclosedString) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<f4}", Float32Data())), Code::kInvalidInput,
                "string starting at offset 20 is not closed");
}

TEST(NpyReaderTest, UnclosedDict) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3),", Float32Data())),
                Code::kInvalidInput, "expected a header key at offset 128, found the end of the header");
}

TEST(NpyReaderTest, GarbageAfterTheDict) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)} x", Float32Data())),
                Code::kInvalidInput, "unexpected 'x' after the header dict at offset 68");
}

TEST(NpyReaderTest, HeaderIsNotADict) {
  EXPECT_STATUS(Parse(MakeNpy("['descr', '<f4']", Float32Data())), Code::kInvalidInput,
                "expected the header dict at offset 10, found '['");
}

TEST(NpyReaderTest, NegativeDimension) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3), }", Float32Data())),
                Code::kInvalidInput, "negative dimension -3 in 'shape' at offset 64");
}

TEST(NpyReaderTest, OverflowingShape) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 2), }",
                              Float32Data())),
                Code::kInvalidInput, "shape [4294967296, 4294967296, 2] has too many elements");
}

TEST(NpyReaderTest, DimensionBeyondInt64) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
                              Float32Data())),
                Code::kInvalidInput, "dimension 99999999999999999999 in 'shape' at offset 61 does not fit in 64 bits");
}

TEST(NpyReaderTest, OneElementShapeWithoutCommaIsNotATuple) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (6)}", Float32Data())),
                Code::kInvalidInput, "'shape' at offset 60 is not a tuple");
}

TEST(NpyReaderTest, ShapeGivenAsList) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3]}", Float32Data())),
                Code::kInvalidInput, "'shape' at offset 60 is a list");
}

TEST(NpyReaderTest, TooManyDimensions) {
  std::string dims;
  for (int i = 0; i < 65; ++i) dims += "1, ";
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }", Float32Data())),
                Code::kInvalidInput, "has more than 64 dims");
}

TEST(NpyReaderTest, TruncatedData) {
  const std::string bytes = Fixture("float32.npy");
  EXPECT_STATUS(Parse(bytes.substr(0, bytes.size() - 4)), Code::kInvalidInput,
                "data of shape [2, 3] float32 needs 24 bytes at offset 128, file has 20 left");
}

TEST(NpyReaderTest, HugeShapeAgainstSmallFile) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<c16', 'fortran_order': False, 'shape': (4611686018427387904,), }", "")),
                Code::kInvalidInput, "needs more than 2^64 bytes at offset 128, file has 0 left");
}

TEST(NpyReaderTest, ObjectDescrIsUnsupported) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", "")), Code::kUnsupported,
                "unsupported descr '|O'");
}

TEST(NpyReaderTest, UnicodeAndDatetimeDescrsAreUnsupported) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", std::string(24, 'a'))),
                Code::kUnsupported, "unsupported descr '<U3'");
  EXPECT_STATUS(Parse(MakeNpy("{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0'))),
                Code::kUnsupported, "unsupported descr '<M8[ns]'");
}

TEST(NpyReaderTest, StructuredDescrIsUnsupported) {
  EXPECT_STATUS(Parse(MakeNpy("{'descr': [('a', '<i4'), ('b', '<f8', (2,))], 'fortran_order': False, 'shape': (1,), }",
                              std::string(20, '\0'))),
                Code::kUnsupported, "unsupported descr [('a', '<i4'), ('b', '<f8', (2,))]");
}

TEST(NpyReaderTest, DeeplyNestedDescrIsRefused) {
  const std::string nested = std::string(100, '[') + std::string(100, ']');
  EXPECT_STATUS(Parse(MakeNpy("{'descr': " + nested + ", 'fortran_order': False, 'shape': (1,), }", "")),
                Code::kInvalidInput, "nested deeper than 32");
}

TEST(NpyReaderTest, MissingFileIsNotFound) {
  testing::TempDir dir;
  EXPECT_STATUS(ReadNpyFile(dir.Path("absent.npy")), Code::kNotFound, "no such file");
}

}  // namespace
}  // namespace msprobe
