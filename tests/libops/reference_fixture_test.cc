// Every fixture under tests/data/ops/cases (written by gen_ops_fixtures.py with torch): the call's
// recorded arguments run through the reference must give torch's float64 outputs.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "msprobe/dump/text/json_file.h"
#include "msprobe/ops/reference/reference.h"
#include "test_support.h"

namespace msprobe::ops {
namespace {

std::vector<std::string> CaseNames() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(testing::TestData("ops/cases"))) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// NaN matches NaN, an infinity the same infinity; finite values |a - b| <= atol + rtol·|b|.
bool Close(double actual, double expected, double rtol, double atol) {
  if (std::isnan(expected) || std::isnan(actual)) return std::isnan(expected) && std::isnan(actual);
  if (std::isinf(expected) || std::isinf(actual)) return actual == expected;
  return std::abs(actual - expected) <= atol + rtol * std::abs(expected);
}

class ReferenceFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceFixture, MatchesTorchFloat64) {
  const std::string dir = testing::TestData("ops/cases/" + GetParam());
  auto doc = ReadJsonFile(dir + "/call.json");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  const std::string api = (*doc)["api"].GetString();
  const double rtol = (*doc)["rtol"].GetDouble(), atol = (*doc)["atol"].GetDouble();
  auto args = ParseCallArgs((*doc)["entry"], api);
  ASSERT_TRUE(args.ok()) << args.status().ToString();
  EXPECT_TRUE(QuerySupport(api).supported) << QuerySupport(api).reason;
  auto outputs = RunReference(api, *args, DirectoryLoader(dir));
  ASSERT_TRUE(outputs.ok()) << outputs.status().ToString();
  ASSERT_EQ(outputs->size(), args->outputs.size());
  for (size_t i = 0; i < outputs->size(); ++i) {
    auto expected = LoadFp64Tensor(dir + "/expected." + std::to_string(i) + ".npy");
    ASSERT_TRUE(expected.ok()) << expected.status().ToString();
    const Fp64Tensor& actual = (*outputs)[i];
    ASSERT_EQ(actual.shape, expected->shape) << "output " << i;
    EXPECT_EQ(actual.shape, args->outputs[i].tensor.shape) << "output " << i << " against the recorded shape";
    for (int64_t k = 0; k < actual.numel(); ++k) {
      const double a = actual.data[static_cast<size_t>(k)], e = expected->data[static_cast<size_t>(k)];
      EXPECT_TRUE(Close(a, e, rtol, atol)) << "output " << i << " element " << k << ": " << a << " vs torch " << e;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ops, ReferenceFixture, ::testing::ValuesIn(CaseNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(ReferenceFixture, EveryFamilyHasCases) { EXPECT_GE(CaseNames().size(), 70u); }

}  // namespace
}  // namespace msprobe::ops
