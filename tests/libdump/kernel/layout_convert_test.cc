// Device → host conversion of every fixture gen_bin_fixtures.py made: each slot written as .npy must
// equal, element by element, the array numpy started from (the fixtures' expected/ files).
#include "msprobe/dump/kernel/layout_convert.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "msprobe/dump/kernel/bin_convert.h"
#include "msprobe/dump/formats/npy_reader.h"
#include "test_support.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;
using testing::TestData;

std::string CasePath(const std::string& tag) {
  const std::string dir = TestData("bin/cases/");
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.find("." + tag + "-op1.") != std::string::npos || name.find("_" + tag + "-op1.") != std::string::npos) {
      return entry.path().string();
    }
  }
  return dir + tag;
}

// The expected file for a slot: the one name in expected/ starting with "{bin}.{io}.{idx}.".
std::string ExpectedPath(const std::string& bin_path, const BinSlot& slot) {
  const std::string prefix = fs::path(bin_path).filename().string() + "." + std::string(SlotKindName(slot.kind)) +
                             "." + std::to_string(slot.index) + ".";
  for (const auto& entry : fs::directory_iterator(TestData("bin/expected"))) {
    if (entry.path().filename().string().starts_with(prefix)) return entry.path().string();
  }
  return "";
}

// Header-independent comparison: dtype, shape and the element bytes.
void ExpectSameArray(const std::string& actual_path, const std::string& expected_path) {
  const std::string actual = testing::ReadFile(actual_path), expected = testing::ReadFile(expected_path);
  Result<TensorInfo> a = ParseNpy(AsBytes(actual), actual_path), e = ParseNpy(AsBytes(expected), expected_path);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(a->dtype, e->dtype) << expected_path;
  EXPECT_EQ(a->shape, e->shape) << expected_path;
  EXPECT_EQ(actual.substr(a->data_offset), expected.substr(e->data_offset)) << expected_path;
}

// Converts every decodable slot of a case and compares it with numpy's array; returns the plans.
std::vector<LayoutPlan> ConvertCase(const std::string& bin_path, bool keep_device_format = false) {
  std::vector<LayoutPlan> plans;
  Result<BinFile> bin = ReadBinFile(bin_path);
  EXPECT_TRUE(bin.ok()) << bin.status().ToString();
  if (!bin.ok()) return plans;
  auto file = MappedFile::Open(bin_path);
  EXPECT_TRUE(file.ok());
  testing::TempDir dir;
  for (const BinSlot& slot : bin->slots) {
    if (!slot.dtype) continue;
    plans.push_back(PlanLayout(slot, keep_device_format));
    const std::string out = dir.Path("slot.npy");
    const Status st = WriteSlotNpy(**file, slot, plans.back(), out);
    EXPECT_TRUE(st.ok()) << st.ToString();
    if (keep_device_format) continue;
    const std::string expected = ExpectedPath(bin_path, slot);
    EXPECT_FALSE(expected.empty()) << bin_path << " " << SlotKindName(slot.kind) << " " << slot.index;
    if (!expected.empty()) ExpectSameArray(out, expected);
  }
  return plans;
}

void ExpectLayout(const std::string& tag, const std::string& format) {
  const std::vector<LayoutPlan> plans = ConvertCase(CasePath(tag));
  ASSERT_EQ(plans.size(), 1u) << tag;
  EXPECT_TRUE(plans[0].converted) << plans[0].note;
  EXPECT_EQ(plans[0].format, format);
}

TEST(LayoutConvertTest, NC1HWC0ToNCHW) { ExpectLayout("NC1HWC0", "NCHW"); }
TEST(LayoutConvertTest, NC1HWC0Float32ToNCHW) { ExpectLayout("NC1HWC0f32", "NCHW"); }
TEST(LayoutConvertTest, NC1HWC0_C04ToNCHW) { ExpectLayout("NC1HWC0_C04", "NCHW"); }
TEST(LayoutConvertTest, FractalZToNCHW) { ExpectLayout("FRACTAL_Z", "NCHW"); }
TEST(LayoutConvertTest, FractalZ2DMindSporePadding) { ExpectLayout("FRACTAL_Z_2D_ms", "ND"); }
TEST(LayoutConvertTest, FractalZ2DGeReading) { ExpectLayout("FRACTAL_Z_2D_ge", "ND"); }
TEST(LayoutConvertTest, FractalZWithGroups) { ExpectLayout("FRACTAL_Z_groups", "NCHW"); }
TEST(LayoutConvertTest, FractalZ3DToNCDHW) { ExpectLayout("FRACTAL_Z_3D", "NCDHW"); }
TEST(LayoutConvertTest, NDC1HWC0ToNCDHW) { ExpectLayout("NDC1HWC0", "NCDHW"); }
TEST(LayoutConvertTest, FractalNZBatchedToND) { ExpectLayout("FRACTAL_NZ", "ND"); }
TEST(LayoutConvertTest, FractalNZRank1ToND) { ExpectLayout("FRACTAL_NZ_1d", "ND"); }
TEST(LayoutConvertTest, C1HWNCoC0ToNCHW) { ExpectLayout("C1HWNCoC0", "NCHW"); }
TEST(LayoutConvertTest, NHWCToNCHW) { ExpectLayout("NHWC", "NCHW"); }
TEST(LayoutConvertTest, HWCNToNCHW) { ExpectLayout("HWCN", "NCHW"); }
TEST(LayoutConvertTest, BFloat16FractalNZToFloat32ND) { ExpectLayout("bf16_NZ", "ND"); }
TEST(LayoutConvertTest, Int8FractalNZWith32WideCubes) { ExpectLayout("int8_NZ", "ND"); }

TEST(LayoutConvertTest, HandEncodedVectorMatchesSpec) {
  const std::vector<LayoutPlan> plans = ConvertCase(TestData("bin/cases/Add.Default_Add-op1.3.2.1735011096403740"));
  ASSERT_EQ(plans.size(), 2u);
  EXPECT_EQ(plans[1].host_shape, (std::vector<int64_t>{1, 3, 1, 2}));
}

TEST(LayoutConvertTest, EveryDTypeDecodesLikeNumpy) {
  // float, float16, double, ints, bool, complex, qint8; bf16 → f32, int4 → int8, float8 → f32, complex32 → c64.
  const std::vector<LayoutPlan> plans = ConvertCase(CasePath("dtypes"));
  EXPECT_EQ(plans.size(), 15u + 6u);
}

TEST(LayoutConvertTest, PlainAndUnconvertibleFormatsKeepTheirLayout) {
  const std::vector<LayoutPlan> plans = ConvertCase(CasePath("plain"));
  ASSERT_EQ(plans.size(), 3u);
  EXPECT_EQ(plans[0].host_shape, (std::vector<int64_t>{2, 3, 4}));  // ND [24] reshaped to original_shape
  EXPECT_EQ(plans[1].format, "FRACTAL_ZN_LSTM");
  EXPECT_EQ(plans[1].note, "device layout kept: no converter for FRACTAL_ZN_LSTM");
  EXPECT_EQ(plans[2].note, "device layout kept: original_shape is empty");
}

TEST(LayoutConvertTest, KeepDeviceFormatWritesTheDeviceShape) {
  const std::vector<LayoutPlan> plans = ConvertCase(CasePath("NC1HWC0"), /*keep_device_format=*/true);
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_FALSE(plans[0].converted);
  EXPECT_EQ(plans[0].format, "NC1HWC0");
  EXPECT_EQ(plans[0].host_shape, (std::vector<int64_t>{2, 2, 3, 5, 16}));
}

TEST(LayoutConvertTest, OriginalShapeThatDoesNotFitKeepsDeviceLayout) {
  Result<BinFile> bin = ReadBinFile(CasePath("NC1HWC0"));
  ASSERT_TRUE(bin.ok());
  BinSlot slot = bin->slots[0];
  slot.original_shape = std::vector<int64_t>{2, 20, 2, 5};  // H = 2, the device has 3
  LayoutPlan plan = PlanLayout(slot, false);
  EXPECT_FALSE(plan.converted);
  EXPECT_EQ(plan.note, "device layout kept: original_shape [2, 20, 2, 5] does not fit device shape "
                       "[2, 2, 3, 5, 16] (N, H, W or C1·C0)");
  slot.original_shape = std::vector<int64_t>{2, 40, 3, 5};  // more elements than the padded device shape
  plan = PlanLayout(slot, false);
  EXPECT_FALSE(plan.converted);
  EXPECT_EQ(plan.note, "device layout kept: original_shape [2, 40, 3, 5] has more elements than device shape "
                       "[2, 2, 3, 5, 16]");
}

// Tiny chunks put chunk boundaries inside rows and force page drops; the bytes must not change.
TEST(LayoutConvertTest, SmallWindowsGiveTheSameBytes) {
  for (const char* tag : {"FRACTAL_NZ", "NC1HWC0", "FRACTAL_Z_groups"}) {
    const std::string path = CasePath(tag);
    Result<BinFile> bin = ReadBinFile(path);
    ASSERT_TRUE(bin.ok());
    auto file = MappedFile::Open(path);
    ASSERT_TRUE(file.ok());
    const BinSlot& slot = bin->slots[0];
    const LayoutPlan plan = PlanLayout(slot, false);
    std::string whole, windowed;
    auto into = [](std::string* s) {
      return [s](Bytes b) { s->append(AsChars(b)); return Status::Ok(); };
    };
    ASSERT_TRUE(StreamHostOrder(**file, slot.tensor, plan, into(&whole)).ok());
    ASSERT_TRUE(StreamHostOrder(**file, slot.tensor, plan, into(&windowed), 6).ok());
    EXPECT_EQ(whole, windowed) << tag;
    const std::string expected = testing::ReadFile(ExpectedPath(path, slot));
    Result<TensorInfo> e = ParseNpy(AsBytes(expected), "expected");
    ASSERT_TRUE(e.ok());
    EXPECT_EQ(whole, expected.substr(e->data_offset)) << tag;
  }
}

}  // namespace
}  // namespace msprobe
