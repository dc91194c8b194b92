#include "msprobe/dump/formats/pt_reader.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <filesystem>
#include <type_traits>

#include "libdump/pt_test_support.h"
#include "msprobe/dump/tensor/element_types.h"
#include "msprobe/dump/tensor/tensor_source.h"
#include "test_support.h"

namespace msprobe {
namespace {

using testing::BuildStoredZip;
using testing::Patch;
using testing::ReadFile;
using testing::TestData;
using testing::View;

// Elements in C order: integers (and bools) exactly, floats as double, complex as re, im pairs.
struct Elements {
  std::vector<int64_t> ints;
  std::vector<double> reals;
};

Elements ReadElements(const TensorInfo& info) {
  Elements out;
  Result<TensorSource> source = TensorSource::Open(info);
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  if (!source.ok() || source->numel() == 0) return out;
  ElementWindow window;
  const Status st = source->Read(0, source->numel(), &window);
  EXPECT_TRUE(st.ok()) << st.ToString();
  const Bytes bytes = window.bytes();
  VisitDType(info.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (size_t i = 0; i + sizeof(T) <= bytes.size(); i += sizeof(T)) {
      T v;
      std::memcpy(&v, bytes.data() + i, sizeof(T));
      if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
        out.reals.push_back(v.real());
        out.reals.push_back(v.imag());
      } else if constexpr (std::is_same_v<T, Complex32>) {
        out.reals.push_back(Float16ToFloat(v.re.bits));
        out.reals.push_back(Float16ToFloat(v.im.bits));
      } else if constexpr (std::is_same_v<T, Int4Pair>) {
        ADD_FAILURE() << "no int4 .pt exists";
      } else if constexpr (std::is_integral_v<T>) {
        out.ints.push_back(static_cast<int64_t>(v));
      } else {
        out.reals.push_back(ToDouble(v));
      }
    }
  });
  return out;
}

std::vector<int64_t> Ints(const rapidjson::Value& a) {
  std::vector<int64_t> out;
  for (const auto& v : a.GetArray()) out.push_back(v.GetInt64());
  return out;
}

// Compares what the reader found with what torch recorded (gen_pt_fixtures.py). `values` may hold only
// the first elements (large shared samples).
void ExpectMatchesTorch(const TensorInfo& info, const rapidjson::Value& want) {
  EXPECT_EQ(Name(info.dtype), want["dtype"].GetString());
  EXPECT_EQ(info.shape, Ints(want["shape"]));
  if (!info.shape.empty()) {
    EXPECT_EQ(info.strides, Ints(want["strides"]));
  }
  EXPECT_EQ(info.storage_offset, want["storage_offset"].GetInt64());
  EXPECT_EQ(info.storage_elements, want["storage_elements"].GetUint64());
  EXPECT_EQ(info.requires_grad, want["requires_grad"].GetBool());
  if (want.HasMember("big_endian")) {
    EXPECT_EQ(info.big_endian, want["big_endian"].GetBool());
  }
  const Elements got = ReadElements(info);
  const rapidjson::Value& values = want["values"];
  if (IsInteger(info.dtype) || info.dtype == DType::kBool) {
    ASSERT_GE(got.ints.size(), values.Size());
    for (rapidjson::SizeType i = 0; i < values.Size(); ++i) EXPECT_EQ(got.ints[i], values[i].GetInt64()) << i;
  } else {
    ASSERT_GE(got.reals.size(), values.Size());
    for (rapidjson::SizeType i = 0; i < values.Size(); ++i) EXPECT_EQ(got.reals[i], values[i].GetDouble()) << i;
  }
  if (want.HasMember("sum") && want["sum"].IsNumber()) {
    double sum = 0;
    for (int64_t v : got.ints) sum += static_cast<double>(v);
    for (double v : got.reals) sum += v;
    EXPECT_NEAR(sum, want["sum"].GetDouble(), 1e-6 * (1 + std::fabs(sum)));
  }
}

rapidjson::Document LoadJson(const std::string& path) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseNanAndInfFlag>(ReadFile(path).c_str());
  EXPECT_FALSE(doc.HasParseError()) << path;
  return doc;
}

// ---- committed fixtures: every readable one against torch's values ----

class PtFixtureTest : public ::testing::TestWithParam<const char*> {};

TEST_P(PtFixtureTest, MatchesTorch) {
  static const rapidjson::Document expected = LoadJson(TestData("pt/expected.json"));
  const std::string name = GetParam();
  ASSERT_TRUE(expected.HasMember(name.c_str())) << name;
  const std::string path = TestData("pt/" + name + ".pt");
  Result<TensorInfo> info = ReadPtFile(path);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->path, path);
  ExpectMatchesTorch(*info, expected[name.c_str()]);
}

INSTANTIATE_TEST_SUITE_P(PtReaderTest, PtFixtureTest,
                         ::testing::Values("f32", "f16", "bf16", "f64", "u8", "i8", "i16", "i32", "i64", "bool",
                                           "c64", "c128", "scalar_i64", "empty_f32", "view", "transposed",
                                           "req_grad", "byteorder_little", "byteorder_big", "byteorder_big_i16",
                                           "torch26_members", "archive_prefix", "version_first", "zip64",
                                           "v2_metadata", "v3_float8_e4m3fn"),
                         [](const ::testing::TestParamInfo<const char*>& p) { return std::string(p.param); });

struct Rejection {
  const char* name;
  Code code;
  const char* needle;
};

class PtRejectionTest : public ::testing::TestWithParam<Rejection> {};

TEST_P(PtRejectionTest, NamesWhatWasFound) {
  const Rejection& r = GetParam();
  EXPECT_STATUS(ReadPtFile(TestData(std::string("pt/") + r.name + ".pt")), r.code, r.needle);
}

INSTANTIATE_TEST_SUITE_P(
    PtReaderTest, PtRejectionTest,
    ::testing::Values(
        Rejection{"dict", Code::kUnsupported, "dict/data.pkl holds a dict of 2 entries, not a single tensor"},
        Rejection{"list", Code::kUnsupported, "list/data.pkl holds a list of 2 items, not a single tensor"},
        Rejection{"parameter", Code::kUnsupported,
                  "holds a call to torch._utils._rebuild_parameter (an nn.Parameter), not a single tensor"},
        Rejection{"legacy", Code::kUnsupported,
                  "legacy (non-zip) torch.save format is not supported; re-save with torch.save(t, path)"},
        Rejection{"quantized", Code::kUnsupported, "holds a call to torch._utils._rebuild_qtensor"},
        Rejection{"quantized_storage", Code::kUnsupported,
                  "holds a quantized tensor (storage torch.QInt8Storage), which is not supported"},
        Rejection{"compressed", Code::kUnsupported, "member 'compressed/data/0' is compressed (method 8)"}),
    [](const ::testing::TestParamInfo<Rejection>& p) { return std::string(p.param.name); });

// ---- specific cases, spelled out ----

TEST(PtReaderTest, ViewKeepsStorageOffsetAndStrides) {
  Result<TensorInfo> info = ReadPtFile(TestData("pt/view.pt"));
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(info->strides, (std::vector<int64_t>{4, 1}));
  EXPECT_EQ(info->storage_offset, 5);
  EXPECT_EQ(info->storage_elements, 12u);
  EXPECT_FALSE(info->IsContiguous());
  EXPECT_EQ(info->data_offset % 64, 0u);
}

TEST(PtReaderTest, UntypedStorageNumelCountsBytes) {
  Result<TensorInfo> info = ReadPtFile(TestData("pt/v3_float8_e4m3fn.pt"));
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->dtype, DType::kF8E4M3FN);
  EXPECT_EQ(info->storage_elements, 8u);
}

TEST(PtReaderTest, MissingFileIsNotFound) {
  EXPECT_STATUS(ReadPtFile(TestData("pt/absent.pt")), Code::kNotFound, "no such file");
}

// ---- bad input: in-memory corruption of a valid file ----

std::string F32() { return ReadFile(TestData("pt/f32.pt")); }

// f32.pt's members, with data.pkl replaced.
std::string F32WithPickle(const std::string& pkl, const std::string& byteorder = "") {
  const std::string file = F32();
  std::vector<std::pair<std::string, std::string>> members = {{"f32/data.pkl", pkl}};
  if (!byteorder.empty()) members.emplace_back("f32/byteorder", byteorder);
  // The storage: the six floats of f32.pt, taken from the fixture itself.
  const size_t at = file.find(std::string("\x00\x00\xc0\x3f", 4));  // 1.5f
  members.emplace_back("f32/data/0", file.substr(at, 24));
  members.emplace_back("f32/version", "3\n");
  return BuildStoredZip(members);
}

std::string F32Pickle() {
  const std::string file = F32();
  const size_t begin = file.find(std::string("\x80\x02", 2));
  const size_t end = file.find(std::string("q\x0b.", 3), begin);
  return file.substr(begin, end + 3 - begin);
}

TEST(PtReaderTest, RebuiltFixtureStillReads) {
  const std::string file = F32WithPickle(F32Pickle());
  Result<TensorInfo> info = ParsePt(View(file), "mem.pt");
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(info->path, "mem.pt");
}

TEST(PtReaderTest, NotAZipFile) {
  EXPECT_STATUS(ParsePt(View("hello world"), "x.pt"), Code::kInvalidInput,
                "not a torch.save file: 11 bytes that do not start with a zip local header");
  EXPECT_STATUS(ParsePt(View(""), "x.pt"), Code::kInvalidInput, "not a torch.save file: 0 bytes");
}

TEST(PtReaderTest, EndRecordMissing) {
  std::string file = F32();
  file.resize(file.size() - 22);
  EXPECT_STATUS(ParsePt(View(file), "f32.pt"), Code::kInvalidInput, "end of central directory record not found");
}

TEST(PtReaderTest, DataPklMissing) {
  const std::string file = Patch(F32(), "f32/data.pkl", "f32/data.pkx");
  EXPECT_STATUS(ParsePt(View(file), "f32.pt"), Code::kInvalidInput, "member 'f32/data.pkl' is missing");
}

TEST(PtReaderTest, FirstMemberNotInAFolder) {
  const std::string file = BuildStoredZip({{"data.pkl", F32Pickle()}});
  EXPECT_STATUS(ParsePt(View(file), "flat.pt"), Code::kInvalidInput, "first member 'data.pkl' is not inside a folder");
}

TEST(PtReaderTest, StorageMemberMissing) {
  const std::string file = Patch(F32(), "f32/data/0", "f32/data/9");
  EXPECT_STATUS(ParsePt(View(file), "f32.pt"), Code::kInvalidInput,
                "storage member 'f32/data/0' named by f32/data.pkl is missing");
}

TEST(PtReaderTest, TruncatedPickle) {
  const std::string file = F32WithPickle(F32Pickle().substr(0, 60));
  EXPECT_STATUS(ParsePt(View(file), "f32.pt"), Code::kInvalidInput,
                "f32/data.pkl: pickle opcode GLOBAL (0x63) at offset 53: argument has no terminating newline");
}

TEST(PtReaderTest, UnknownOpcodeInPickle) {
  const std::string file = Patch(F32(), std::string("tq\x05Q", 4), std::string("tq\x05\xff", 4));
  EXPECT_STATUS(ParsePt(View(file), "f32.pt"), Code::kInvalidInput,
                "f32/data.pkl: pickle opcode 0xff at offset 98: unknown opcode");
}

TEST(PtReaderTest, MemoIndexOutOfRangeInPickle) {
  const std::string file = Patch(F32(), std::string("Rq\x0b.", 4), std::string("Rh\x30.", 4));
  EXPECT_STATUS(ParsePt(View(file), "f32.pt"), Code::kInvalidInput,
                "f32/data.pkl: pickle opcode BINGET (0x68) at offset 151: memo index 48 is not set");
}

TEST(PtReaderTest, DeepNestingInPickle) {
  const std::string deep = "\x80\x02)" + std::string(200, '\x85') + ".";
  EXPECT_STATUS(ParsePt(View(F32WithPickle(deep)), "f32.pt"), Code::kInvalidInput,
                "f32/data.pkl: pickle opcode TUPLE1 (0x85) at offset 66: values nested deeper than 64");
}

TEST(PtReaderTest, StorageShorterThanView) {
  // storage_offset 0 → 5: the 2x3 tensor then needs elements up to 10 of a 6-element storage.
  const std::string file = Patch(F32(), std::string("QK\x00", 3), std::string("QK\x05", 3));
  EXPECT_STATUS(ParsePt(View(file), "f32.pt"), Code::kInvalidInput,
                "tensor [2, 3] at storage offset 5 needs 11 elements, storage has 6");
}

TEST(PtReaderTest, StrideBeyondStorage) {
  const std::string file = Patch(F32(), std::string("K\x03K\x01\x86", 5), std::string("K\xffK\x01\x86", 5));
  EXPECT_STATUS(ParsePt(View(file), "f32.pt"), Code::kInvalidInput, "needs 258 elements, storage has 6");
}

TEST(PtReaderTest, StorageNumelDisagreesWithMember) {
  const std::string file = Patch(F32(), std::string("cpuq\x04K\x06", 7), std::string("cpuq\x04K\x07", 7));
  EXPECT_STATUS(ParsePt(View(file), "f32.pt"), Code::kInvalidInput,
                "f32/data.pkl declares a storage of 7 elements but member 'f32/data/0' has 24 bytes");
}

TEST(PtReaderTest, ShapeOverflow) {
  std::string pkl = F32Pickle();
  const std::string size("K\x02K\x03\x86", 5);
  const std::string huge("\x8a\x06\x00\x00\x00\x00\x00\x01\x8a\x06\x00\x00\x00\x00\x00\x01\x86", 17);  // 2^40 x 2^40
  pkl.replace(pkl.find(size), size.size(), huge);
  EXPECT_STATUS(ParsePt(View(F32WithPickle(pkl)), "f32.pt"), Code::kInvalidInput,
                "shape [1099511627776, 1099511627776] has too many elements");
}

TEST(PtReaderTest, NegativeDimension) {
  std::string pkl = F32Pickle();
  const std::string size("K\x02K\x03\x86", 5);
  pkl.replace(pkl.find(size), size.size(), std::string("J\xfe\xff\xff\xffK\x03\x86", 8));
  EXPECT_STATUS(ParsePt(View(F32WithPickle(pkl)), "f32.pt"), Code::kInvalidInput, "negative dimension in shape [-2, 3]");
}

TEST(PtReaderTest, SizeAndStrideRanksDiffer) {
  std::string pkl = F32Pickle();
  const std::string stride("K\x03K\x01\x86", 5);
  pkl.replace(pkl.find(stride), stride.size(), std::string("K\x01\x85", 3));
  EXPECT_STATUS(ParsePt(View(F32WithPickle(pkl)), "f32.pt"), Code::kInvalidInput,
                "f32/data.pkl: size has 2 dims but stride has 1");
}

TEST(PtReaderTest, BadByteorderMember) {
  EXPECT_STATUS(ParsePt(View(F32WithPickle(F32Pickle(), "middle")), "f32.pt"), Code::kInvalidInput,
                "member 'f32/byteorder' holds 'middle', expected 'little' or 'big'");
}

TEST(PtReaderTest, OtherGlobalIsUnsupported) {
  const std::string pkl("\x80\x02" "cos\nsystem\nq\x00.", 16);
  EXPECT_STATUS(ParsePt(View(F32WithPickle(pkl)), "f32.pt"), Code::kUnsupported,
                "f32/data.pkl holds a global os.system, not a single tensor");
}

TEST(PtReaderTest, WrongArgumentCount) {
  const std::string pkl("\x80\x02" "ctorch._utils\n_rebuild_tensor_v2\n(K\x01tR.", 41);
  EXPECT_STATUS(ParsePt(View(F32WithPickle(pkl)), "f32.pt"), Code::kInvalidInput,
                "_rebuild_tensor_v2 takes 6 or 7 arguments, got a tuple of 1 item");
}

// ---- the shared samples written by msprobe's torch run (skipped when ../shared is absent) ----

TEST(PtReaderTest, SharedPtNpySamplesMatchTorch) {
  MSP_REQUIRE_SHARED(dir, "msprobe_samples/pt_npy");
  const rapidjson::Document expected = LoadJson(TestData("pt/shared_expected.json"));
  int checked = 0;
  for (auto it = expected.MemberBegin(); it != expected.MemberEnd(); ++it) {
    const std::string path = dir + "/" + it->name.GetString();
    SCOPED_TRACE(path);
    Result<TensorInfo> info = ReadPtFile(path);
    ASSERT_TRUE(info.ok()) << info.status().ToString();
    ExpectMatchesTorch(*info, it->value);
    ++checked;
  }
  EXPECT_EQ(checked, 11);  // every .pt of pt_npy but legacy.pt
  EXPECT_STATUS(ReadPtFile(dir + "/legacy.pt"), Code::kUnsupported, "legacy (non-zip) torch.save format");
}

TEST(PtReaderTest, SharedBoolWithBinintNumel) {
  MSP_REQUIRE_SHARED(path, "msprobe_samples/pt_npy/bool_70000.pt");
  Result<TensorInfo> info = ReadPtFile(path);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->dtype, DType::kBool);
  EXPECT_EQ(info->storage_elements, 70000u);
}

// `want` is null where msprobe records no statistic (Mean and Norm of an int64 vector).
void ExpectStatistic(double got, const rapidjson::Value& want, double rel) {
  if (!want.IsNumber()) return;
  const double w = want.GetDouble();
  if (std::isnan(w) || std::isinf(w) || rel == 0) {
    EXPECT_TRUE(got == w || (std::isnan(got) && std::isnan(w))) << got << " vs " << w;
  } else {
    EXPECT_NEAR(got, w, rel * (1 + std::fabs(w)));
  }
}

// Walks dump.json for tensors with a data_name and compares the .pt file's elements with the
// statistics msprobe computed with torch when it wrote the file.
void CheckStatistics(const rapidjson::Value& v, const std::string& dir, int* checked) {
  if (v.IsArray()) {
    for (const auto& item : v.GetArray()) CheckStatistics(item, dir, checked);
    return;
  }
  if (!v.IsObject()) return;
  if (v.HasMember("data_name") && v["data_name"].IsString() && v.HasMember("Max") && v["Max"].IsNumber()) {
    const std::string path = dir + "/dump_tensor_data/" + v["data_name"].GetString();
    SCOPED_TRACE(path);
    Result<TensorInfo> info = ReadPtFile(path);
    ASSERT_TRUE(info.ok()) << info.status().ToString();
    EXPECT_EQ(info->dtype, FromDumpName(v["dtype"].GetString()));
    EXPECT_EQ(info->shape, Ints(v["shape"]));
    const Elements e = ReadElements(*info);
    std::vector<double> all(e.reals);
    for (int64_t x : e.ints) all.push_back(static_cast<double>(x));
    ASSERT_EQ(all.size(), info->Numel());
    double max = -INFINITY, min = INFINITY, sum = 0, sq = 0;
    bool nan = false;
    for (double x : all) {
      nan = nan || std::isnan(x);
      max = std::max(max, x);
      min = std::min(min, x);
      sum += x;
      sq += x * x;
    }
    if (nan) max = min = NAN;  // torch's max/min propagate NaN
    ExpectStatistic(max, v["Max"], 0);
    ExpectStatistic(min, v["Min"], 0);
    ExpectStatistic(sum / static_cast<double>(all.size()), v["Mean"], 1e-6);  // torch sums in float32
    ExpectStatistic(std::sqrt(sq), v["Norm"], 1e-5);
    ++*checked;
    return;
  }
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) CheckStatistics(it->value, dir, checked);
}

TEST(PtReaderTest, SharedTensorDumpMatchesRecordedStatistics) {
  MSP_REQUIRE_SHARED(root, "msprobe_samples/single_proc/t_l1");
  int checked = 0;
  for (const auto& step : std::filesystem::directory_iterator(root)) {
    if (!step.is_directory()) continue;
    for (const auto& proc : std::filesystem::directory_iterator(step.path())) {
      if (!std::filesystem::exists(proc.path() / "dump.json")) continue;
      const rapidjson::Document dump = LoadJson((proc.path() / "dump.json").string());
      CheckStatistics(dump["data"], proc.path().string(), &checked);
    }
  }
  EXPECT_GE(checked, 40);
}

}  // namespace
}  // namespace msprobe
