// CompareTensors against msprobe: the pairs of docs/compare.md §4.2's "Metric values verified in G3" table
// (values quoted there, produced by msprobe), msprobe's own xlsx for the dist2 tensor dumps
// (golden/cmp_t_rank0.csv), and further pairs whose cells tests/data/compare/gen_tensor_fixtures.py
// computed with numpy along msprobe's pipeline (tensors/expected.json).
#include "msprobe/compare/metrics/tensor_compare.h"

#include <gtest/gtest.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <variant>
#include <vector>

#include "msprobe/compare/table/result_row.h"
#include "msprobe/dump/files/content_hash.h"
#include "msprobe/dump/text/json_file.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

using testing::TestData;

// One expected cell: a number or one of msprobe's strings.
using Want = std::variant<double, std::string>;

std::string TensorDir() { return TestData("compare/tensors"); }

TensorCompareInput Pair(const std::string& target, const std::string& golden) {
  return {target, golden, true, TensorDir(), TensorDir()};
}

TensorCompareInput Case(const std::string& name, const std::string& ext = ".pt") {
  return Pair(name + ".npu" + ext, name + ".bench" + ext);
}

// Exact for every cell but EucDist, which depends on summation order (1e-12 relative, §4.2 notes).
void ExpectCells(const std::array<Cell, 6>& got, const std::vector<Want>& want) {
  ASSERT_EQ(want.size(), 6u);
  for (int i = 0; i < 6; ++i) {
    SCOPED_TRACE("metric " + std::to_string(i) + ": got " + got[i].ToPython());
    if (const auto* text = std::get_if<std::string>(&want[i])) {
      EXPECT_TRUE(got[i].IsText(*text)) << "want " << *text;
      continue;
    }
    const double value = std::get<double>(want[i]);
    ASSERT_EQ(got[i].kind(), Cell::Kind::kFloat);
    if (i == kEucDist) {
      EXPECT_NEAR(got[i].number(), value, std::fabs(value) * 1e-12);
    } else {
      EXPECT_EQ(got[i].number(), value);
    }
  }
}

const std::string kUnsupported = "unsupported";

// docs/compare.md §4.2, "Metric values verified in G3" ([Cos, Euc, MaxAbs, MaxRel, 1‰, 5‰]).
TEST(TensorCompareTest, VerifiedG3Values) {
  const std::vector<std::pair<const char*, std::vector<Want>>> cases = {
      {"g3_f16", {0.999999, 0.0010004043579101562, 0.001000404358, 8392.0, 0.666666666667, 0.666666666667}},
      {"g3_i32", {0.894427191, 1.0, 1.0, 4503599627370496.0, 0.666666666667, 0.666666666667}},
      {"g3_ones_zeros", {"Nan", 2.0, 1.0, 8388608.0, 0.0, 0.0}},
      {"g3_nan_same", {0.989949493661, 1.0, 1.0, 0.5, 0.666666666667, 0.666666666667}},
      {"g3_all_zero", {1.0, 0.0, 0.0, 0.0, 1.0, 1.0}},
      {"g3_0d", {kUnsupported, kUnsupported, 1.0, 0.5, kUnsupported, kUnsupported}},
      {"g3_f16_f32", {1.0, 0.0009999275207519531, 0.000999927521, 0.000333198113, 1.0, 1.0}},
      {"g3_neg", {-1.0, 7.483314773547883, 6.0, 2.0, 0.0, 0.0}},
  };
  for (const auto& [name, want] : cases) {
    SCOPED_TRACE(name);
    ExpectCells(CompareTensors(Case(name)), want);
  }
  // "f64 same": only MaxRel is quoted; the 0-d bool MaxRel is §4.2 step 6.6's NumPy 1.x value.
  EXPECT_EQ(CompareTensors(Case("g3_f64"))[kMaxRelativeErr].number(), 4503599627370.496);
  EXPECT_EQ(CompareTensors(Case("g3_0d_bool"))[kMaxRelativeErr].number(), 8388608.0);
}

// Every pair of the generator, against the cells its numpy pipeline recorded.
TEST(TensorCompareTest, MatchesNumpyPipeline) {
  Result<JsonDocument> doc = ReadJsonFile(TestData("compare/tensors/expected.json"));
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  int checked = 0;
  for (auto it = doc->MemberBegin(); it != doc->MemberEnd(); ++it) {
    const std::string name = it->name.GetString();
    SCOPED_TRACE(name);
    std::vector<Want> want;
    for (const auto& v : it->value.GetArray()) {
      if (v.IsString()) want.emplace_back(std::string(v.GetString()));
      else want.emplace_back(v.GetDouble());
    }
    ExpectCells(CompareTensors(Case(name, name == "npy_f32" ? ".npy" : ".pt")), want);
    ++checked;
  }
  EXPECT_EQ(checked, 26);
}

TEST(TensorCompareTest, NanInfPositions) {
  // +inf against -inf at one position and NaN/Inf elsewhere at the same positions: compared.
  EXPECT_TRUE(CompareTensors(Case("nan_inf_match"))[kCosine].kind() == Cell::Kind::kFloat);
  for (const Cell& c : CompareTensors(Case("nan_inf_mismatch"))) EXPECT_TRUE(c.IsText("N/A")) << c.ToPython();
}

TEST(TensorCompareTest, ShapesAreSqueezed) {
  EXPECT_EQ(CompareTensors(Case("squeeze"))[kMaxAbsErr].number(), 0.5);  // [1, 5] against [5]
  for (const Cell& c : CompareTensors(Case("shape_mismatch"))) EXPECT_TRUE(c.IsText("shape unmatched"));
  // [1, 1] against [1]: both squeeze to 0-d.
  const auto cells = CompareTensors(Case("size1"));
  EXPECT_TRUE(cells[kCosine].IsText(kUnsupported));
  EXPECT_EQ(cells[kMaxAbsErr].number(), 0.5);
}

TEST(TensorCompareTest, RowsWithoutDataAreUnsupported) {
  auto expect_unsupported = [](const TensorCompareInput& input) {
    for (const Cell& c : CompareTensors(input)) EXPECT_TRUE(c.IsText(kUnsupported)) << c.ToPython();
  };
  expect_unsupported(Case("empty"));
  expect_unsupported(Pair("-1", "-1"));                              // No real data
  expect_unsupported(Pair("g3_neg.npu.pt", "-1"));
  TensorCompareInput unmatched = Pair("g3_neg.npu.pt", "N/A");      // api unmatched
  unmatched.golden_matched = false;
  expect_unsupported(unmatched);
  expect_unsupported(Pair("g3_neg.npu.pt", "missing.pt"));          // No data
  expect_unsupported(Pair("../tensors/g3_neg.npu.pt", "g3_neg.bench.pt"));  // refused by ResolveDataName
  expect_unsupported(Pair("expected.json", "g3_neg.bench.pt"));     // unreadable
}

TEST(TensorCompareTest, WindowSizeDoesNotChangeTheResult) {
  // 50,000 elements: one window against windows of 4096 (the smallest) and 8192 elements, the latter
  // two also run on several threads (over four windows).
  const auto whole = CompareTensors(Case("big"));
  for (uint64_t chunk : {1u, 5000u, 8192u, 20000u}) {
    SCOPED_TRACE(chunk);
    const auto cells = CompareTensors(Case("big"), {.chunk_elements = chunk});
    for (int i = 0; i < 6; ++i) EXPECT_EQ(cells[i], whole[i]) << i;
  }
}

TEST(TensorCompareTest, ConcurrentCallsAgree) {
  const char* names[] = {"big", "bf16_f32", "g3_f16", "nan_inf_match", "transposed", "g3_0d"};
  std::vector<std::array<Cell, 6>> serial;
  for (const char* n : names) serial.push_back(CompareTensors(Case(n), {.chunk_elements = 4096}));
  std::vector<std::array<Cell, 6>> parallel(60);
  tbb::parallel_for(0, 60, [&](int i) { parallel[i] = CompareTensors(Case(names[i % 6]), {.chunk_elements = 4096}); });
  for (int i = 0; i < 60; ++i) EXPECT_EQ(parallel[i], serial[i % 6]) << names[i % 6];
}

// --attribute's hashes come from the metric pass (docs/ops.md §7): the target file's content hash,
// as TensorContentHash reads it from the file, when the metrics streamed the target whole on one
// thread (a strided view in logical order too); left unset when they did not (over four windows,
// or the golden unreadable), for the caller to hash the file.
TEST(TensorCompareTest, TargetHashIsTheFilesContentHash) {
  for (const char* name : {"big", "bf16_f32", "g3_f16", "transposed"}) {
    SCOPED_TRACE(name);
    const Result<uint64_t> file_hash = TensorContentHash(TensorDir() + "/" + name + ".npu.pt");
    ASSERT_TRUE(file_hash.ok()) << file_hash.status().ToString();
    std::optional<uint64_t> hash;
    CompareTensors(Case(name), {}, nullptr, &hash);
    EXPECT_EQ(hash, std::optional<uint64_t>(*file_hash));
  }
  std::optional<uint64_t> parallel, unreadable;
  CompareTensors(Case("big"), {.chunk_elements = 8192}, nullptr, &parallel);  // 7 windows
  EXPECT_EQ(parallel, std::nullopt);
  CompareTensors(Pair("g3_neg.npu.pt", "missing.pt"), {}, nullptr, &unreadable);
  EXPECT_EQ(unreadable, std::nullopt);
}

// msprobe's tensor-mode xlsx for dist2 npu_t vs bench_t, rank0: every row's six cells.
TEST(TensorCompareTest, MatchesMsprobeXlsxForDist2) {
  MSP_REQUIRE_SHARED(root, "msprobe_samples/dist2");
  std::ifstream in(TestData("compare/golden/cmp_t_rank0.csv"));
  std::string line;
  std::getline(in, line);  // header
  int rows = 0, with_data = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');) fields.push_back(f);
    ASSERT_EQ(fields.size(), 8u) << line;
    SCOPED_TRACE(fields[0]);
    std::vector<Want> want;
    for (int i = 2; i < 8; ++i) {
      char* end = nullptr;
      const double v = std::strtod(fields[i].c_str(), &end);
      if (end != fields[i].c_str() && *end == '\0') want.emplace_back(v);
      else want.emplace_back(fields[i]);
    }
    const TensorCompareInput input{fields[0], fields[1], true, root + "/npu_t/step0/rank0/dump_tensor_data",
                                   root + "/bench_t/step0/rank0/dump_tensor_data"};
    ExpectCells(CompareTensors(input), want);
    ++rows;
    with_data += fields[0] != "-1";
  }
  EXPECT_EQ(rows, 52);
  EXPECT_EQ(with_data, 45);
}

}  // namespace
}  // namespace msprobe::compare
