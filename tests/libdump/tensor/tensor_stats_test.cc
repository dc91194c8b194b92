#include "msprobe/dump/tensor/tensor_stats.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <bit>
#include <filesystem>
#include <span>
#include <vector>
#include <cmath>
#include <string>

#include "msprobe/dump/formats/npy_reader.h"
#include "msprobe/dump/formats/npy_writer.h"
#include "test_support.h"

// Fixtures and expected values come from tests/data/gen_stats_fixtures.py (numpy float64, zlib.crc32).
namespace msprobe {
namespace {

using testing::TestData;

const rapidjson::Value& Case(const std::string& name) {
  static const rapidjson::Document* doc = [] {
    auto* d = new rapidjson::Document;
    d->Parse<rapidjson::kParseFullPrecisionFlag>(testing::ReadFile(TestData("stats/expected.json")).c_str());
    return d;
  }();
  EXPECT_FALSE(doc->HasParseError());
  EXPECT_TRUE(doc->HasMember(name.c_str())) << name;
  return (*doc)[name.c_str()];
}

// The TensorInfo of a fixture, built from what the script recorded (dtype, shape, data offset).
TensorInfo CaseInfo(const std::string& name) {
  const rapidjson::Value& c = Case(name);
  TensorInfo info;
  info.dtype = FromName(c["dtype"].GetString()).value();
  for (const auto& d : c["shape"].GetArray()) info.shape.push_back(d.GetInt64());
  info.path = TestData(std::string("stats/") + c["file"].GetString());
  info.data_offset = c["data_offset"].GetUint64();
  info.storage_elements = c["numel"].GetUint64();
  info.big_endian = c["big_endian"].GetBool();
  return info;
}

TensorStats Stats(const TensorInfo& info, const StatsOptions& options = {}) {
  const Status valid = ValidateExtent(info, info.path);
  EXPECT_TRUE(valid.ok()) << valid.ToString();
  Result<TensorSource> source = TensorSource::Open(info);
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  if (!source.ok()) return {};
  Result<TensorStats> stats = ComputeStats(*source, options);
  EXPECT_TRUE(stats.ok()) << stats.status().ToString();
  return stats.ok() ? *stats : TensorStats{};
}

TensorStats Stats(const std::string& name, const StatsOptions& options = {}) { return Stats(CaseInfo(name), options); }

// `tolerance` 0: exactly equal. Otherwise relative (absolute below 1). "nan", "inf", "-inf" are strings.
void ExpectValue(double actual, const rapidjson::Value& expected, double tolerance, const char* what) {
  if (expected.IsString()) {
    const std::string s = expected.GetString();
    if (s == "nan") EXPECT_TRUE(std::isnan(actual)) << what << " = " << actual;
    else EXPECT_EQ(actual, s == "inf" ? INFINITY : -INFINITY) << what;
    return;
  }
  const double e = expected.GetDouble();
  if (tolerance == 0) EXPECT_EQ(actual, e) << what;
  else EXPECT_NEAR(actual, e, tolerance * std::max(1.0, std::fabs(e))) << what;
}

// Compares every field with the numpy/zlib values; crc32_f32 only when the options asked for it. Max and
// min are exact except for complex, where numpy's SIMD |z| may differ from hypot by an ulp.
void ExpectMatchesNumpy(const TensorStats& s, const std::string& name, const StatsOptions& options = {},
                        double extremes_tolerance = 0) {
  SCOPED_TRACE(name);
  const rapidjson::Value& c = Case(name);
  EXPECT_EQ(s.dtype, FromName(c["dtype"].GetString()).value());
  EXPECT_EQ(s.numel, c["numel"].GetUint64());
  EXPECT_EQ(s.has_values, c["has_values"].GetBool());
  ExpectValue(s.max, c["max"], extremes_tolerance, "max");
  ExpectValue(s.min, c["min"], extremes_tolerance, "min");
  ExpectValue(s.mean, c["mean"], 1e-12, "mean");
  ExpectValue(s.norm, c["norm"], 1e-12, "norm");
  EXPECT_EQ(s.nan_count, c["nan_count"].GetUint64());
  EXPECT_EQ(s.pos_inf_count, c["pos_inf_count"].GetUint64());
  EXPECT_EQ(s.neg_inf_count, c["neg_inf_count"].GetUint64());
  EXPECT_EQ(s.zero_count, c["zero_count"].GetUint64());
  EXPECT_EQ(s.crc32, c["crc32"].GetUint()) << std::hex << s.crc32;
  EXPECT_EQ(s.xor64, c["xor64"].GetUint64()) << std::hex << s.xor64;
  EXPECT_EQ(s.crc32_f32, options.crc32_as_float32 ? c["crc32_f32"].GetUint() : 0u) << std::hex << s.crc32_f32;
}

// Bit-for-bit equality of every field (NaN payloads included).
void ExpectIdentical(const TensorStats& a, const TensorStats& b) {
  EXPECT_EQ(a.dtype, b.dtype);
  EXPECT_EQ(a.numel, b.numel);
  EXPECT_EQ(std::bit_cast<uint64_t>(a.max), std::bit_cast<uint64_t>(b.max));
  EXPECT_EQ(std::bit_cast<uint64_t>(a.min), std::bit_cast<uint64_t>(b.min));
  EXPECT_EQ(std::bit_cast<uint64_t>(a.mean), std::bit_cast<uint64_t>(b.mean));
  EXPECT_EQ(std::bit_cast<uint64_t>(a.norm), std::bit_cast<uint64_t>(b.norm));
  EXPECT_EQ(a.has_values, b.has_values);
  EXPECT_EQ(a.nan_count, b.nan_count);
  EXPECT_EQ(a.pos_inf_count, b.pos_inf_count);
  EXPECT_EQ(a.neg_inf_count, b.neg_inf_count);
  EXPECT_EQ(a.zero_count, b.zero_count);
  EXPECT_EQ(a.crc32, b.crc32);
  EXPECT_EQ(a.crc32_f32, b.crc32_f32);
  EXPECT_EQ(a.xor64, b.xor64);
}

StatsOptions WithWindow(uint64_t window_bytes, bool crc32_as_float32 = false) {
  StatsOptions options;
  options.window_bytes = window_bytes;
  options.crc32_as_float32 = crc32_as_float32;
  return options;
}

TEST(TensorStatsTest, Float32NanMakesAllFourStatisticsNan) {
  const TensorStats s = Stats("f32_special");
  ExpectMatchesNumpy(s, "f32_special");
  EXPECT_TRUE(std::isnan(s.max) && std::isnan(s.min) && std::isnan(s.mean) && std::isnan(s.norm));
  EXPECT_EQ(s.nan_count, 1u);
  EXPECT_EQ(s.pos_inf_count, 1u);
  EXPECT_EQ(s.neg_inf_count, 1u);
  EXPECT_EQ(s.zero_count, 3u);  // 0.0, 0.0 and -0.0
}

TEST(TensorStatsTest, Float32InfinitiesWithoutNanGiveInfiniteExtremesAndNanMean) {
  const TensorStats s = Stats("f32_infinities");
  ExpectMatchesNumpy(s, "f32_infinities");
  EXPECT_EQ(s.max, INFINITY);
  EXPECT_EQ(s.min, -INFINITY);
  EXPECT_TRUE(std::isnan(s.mean));
  EXPECT_EQ(s.norm, INFINITY);
}

TEST(TensorStatsTest, Float32ValuesMatchNumpy) { ExpectMatchesNumpy(Stats("f32_values"), "f32_values"); }

TEST(TensorStatsTest, BigEndianFloat32MatchesItsLittleEndianCopy) {
  const TensorStats big = Stats("f32_big_endian");
  ExpectMatchesNumpy(big, "f32_big_endian");
  ExpectIdentical(big, Stats("f32_values"));  // CRC and xor are of the little-endian bytes
}

TEST(TensorStatsTest, Float16MatchesNumpy) {
  ExpectMatchesNumpy(Stats("f16"), "f16");
  const StatsOptions as_f32 = WithWindow(StatsOptions{}.window_bytes, true);
  ExpectMatchesNumpy(Stats("f16", as_f32), "f16", as_f32);
}

TEST(TensorStatsTest, BFloat16RawWordsMatchTorch) {
  TensorInfo info = CaseInfo("bf16");  // a uint16 .npy read as bfloat16
  ASSERT_EQ(info.dtype, DType::kBF16);
  ExpectMatchesNumpy(Stats(info), "bf16");
  const StatsOptions as_f32 = WithWindow(StatsOptions{}.window_bytes, true);
  const TensorStats s = Stats(info, as_f32);
  ExpectMatchesNumpy(s, "bf16", as_f32);
  EXPECT_NE(s.crc32_f32, s.crc32);
}

TEST(TensorStatsTest, Float64MatchesNumpy) { ExpectMatchesNumpy(Stats("f64"), "f64"); }

TEST(TensorStatsTest, IntegerTypesMatchNumpy) {
  for (const char* name : {"int8", "int16", "int32", "int64", "uint8"}) ExpectMatchesNumpy(Stats(name), name);
}

TEST(TensorStatsTest, BoolIsAnyAllFractionAndSqrtCount) {
  const TensorStats s = Stats("bool");
  ExpectMatchesNumpy(s, "bool");
  EXPECT_EQ(s.max, 1.0);
  EXPECT_EQ(s.min, 0.0);
}

TEST(TensorStatsTest, Complex64StatisticsAreOfTheModulus) {
  const TensorStats s = Stats("complex64");
  ExpectMatchesNumpy(s, "complex64", {}, 1e-15);
  EXPECT_EQ(s.zero_count, 1u);
  EXPECT_GE(s.min, 0.0);
}

TEST(TensorStatsTest, Int4NibblesAreSignExtendedLowNibbleFirst) {
  const TensorStats s = Stats("int4");  // [1, -2, 7, -8, 0] in 3 bytes
  ExpectMatchesNumpy(s, "int4");
  EXPECT_EQ(s.max, 7.0);
  EXPECT_EQ(s.min, -8.0);
}

TEST(TensorStatsTest, ZeroDimTensorStatisticsEqualTheValue) {
  const TensorStats f = Stats("zero_dim_f32");
  ExpectMatchesNumpy(f, "zero_dim_f32");
  EXPECT_EQ(f.numel, 1u);
  EXPECT_EQ(f.max, 1.5);
  EXPECT_EQ(f.mean, 1.5);
  EXPECT_EQ(f.norm, 1.5);
  ExpectMatchesNumpy(Stats("zero_dim_i64"), "zero_dim_i64");
}

TEST(TensorStatsTest, EmptyTensorHasNoValues) {
  const TensorStats s = Stats("empty_f32");
  ExpectMatchesNumpy(s, "empty_f32");
  EXPECT_FALSE(s.has_values);
  EXPECT_EQ(s.numel, 0u);
  EXPECT_TRUE(std::isnan(s.max) && std::isnan(s.min) && std::isnan(s.mean) && std::isnan(s.norm));
}

// docs/formats.md §1.4: values msprobe wrote in a real run.
TEST(TensorStatsTest, MsprobeChecksumExamples) {
  const TensorStats vector = Stats("i64_123");
  EXPECT_EQ(vector.crc32, 0x2bcb8d87u);
  EXPECT_EQ(vector.xor64, 0u);
  const TensorStats scalar = Stats("zero_dim_i64");
  EXPECT_EQ(scalar.crc32, 0xebadd88au);
  EXPECT_EQ(scalar.xor64, 3u);
  const TensorStats empty = Stats("empty_f32");
  EXPECT_EQ(empty.crc32, 0u);
  EXPECT_EQ(empty.xor64, 0u);
}

TEST(TensorStatsTest, OptionsTurnChecksumsOff) {
  StatsOptions options;
  options.crc32 = false;
  options.xor64 = false;
  const TensorStats s = Stats("i64_123", options);
  EXPECT_EQ(s.crc32, 0u);
  EXPECT_EQ(s.xor64, 0u);
  EXPECT_EQ(s.max, 3.0);
}

// 20000 bytes: 5 windows of 4096 bytes, 3 of 8192, 1 by default; window_bytes 1 rounds up to one
// 512-element chunk (40 windows). The parallel path and crc32_combine must not change a bit.
TEST(TensorStatsTest, WindowSizeDoesNotChangeAnyResult) {
  const TensorStats whole = Stats("multi_f32");
  ExpectMatchesNumpy(whole, "multi_f32");
  for (uint64_t window : {uint64_t{1}, uint64_t{4096}, uint64_t{8192}}) {
    SCOPED_TRACE(window);
    ExpectIdentical(Stats("multi_f32", WithWindow(window)), whole);
  }
  const StatsOptions as_f32 = WithWindow(StatsOptions{}.window_bytes, true);
  const TensorStats bf16 = Stats("bf16", as_f32);  // 6000 bytes: 2 windows of 4096
  ExpectIdentical(Stats("bf16", WithWindow(4096, true)), bf16);
  ExpectMatchesNumpy(Stats("bf16", WithWindow(4096, true)), "bf16", as_f32);
}

TEST(TensorStatsTest, StridedViewMatchesItsContiguousCopy) {
  TensorInfo view = CaseInfo("multi_f32");  // m[:, 1::2] of the 50 x 100 array
  view.shape = {50, 50};
  view.strides = {100, 2};
  view.storage_offset = 1;
  for (uint64_t window : {uint64_t{4096}, StatsOptions{}.window_bytes}) {
    SCOPED_TRACE(window);
    const TensorStats s = Stats(view, WithWindow(window));
    ExpectMatchesNumpy(s, "multi_f32_view_copy");
    ExpectIdentical(s, Stats("multi_f32_view_copy", WithWindow(window)));
  }
}

TEST(TensorStatsTest, TwoRunsAreBitIdentical) {
  const StatsOptions options = WithWindow(4096);
  ExpectIdentical(Stats("multi_f32", options), Stats("multi_f32", options));
  ExpectIdentical(Stats("complex64", options), Stats("complex64", options));
}

// The tensor file shrinks after it was opened (another program truncates it): the statistics fail
// with an error naming the file instead of the process dying of SIGBUS.
TEST(TensorStatsTest, FileTruncatedWhileReadIsAnErrorNotACrash) {
  msprobe::testing::TempDir dir;
  const std::string path = dir.Path("big.npy");
  const std::vector<float> values(4 << 20, 1.5f);  // 16 MiB: several windows
  ASSERT_TRUE(WriteNpy(path, DType::kF32, {static_cast<int64_t>(values.size())},
                       std::as_bytes(std::span<const float>(values))).ok());
  auto info = ReadNpyFile(path);
  ASSERT_TRUE(info.ok());
  auto source = TensorSource::Open(*info);
  ASSERT_TRUE(source.ok());
  std::filesystem::resize_file(path, 4096);
  EXPECT_STATUS(ComputeStats(*source), Code::kIOError, "truncated while it was being read");
}

}  // namespace
}  // namespace msprobe
