// right_matmul end to end (docs/compare.md §4.2 step 3): our compare of tests/data/right_matmul with its
// yaml against the csv msprobe itself wrote (tests/data/right_matmul/README.md).
#include <gtest/gtest.h>

#include <string>

#include "libcompare/jobs/msprobe_csv.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/metrics/right_matmul.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

using testing::TestData;

TEST(RightMatmulGoldenTest, ProductsAsMsprobe) {
  testing::TempDir tmp;
  // The committed yaml's paths are relative to its directory; this process's cwd is elsewhere.
  std::string yaml = testing::ReadFile(TestData("right_matmul/config/right_matmul.yaml"));
  for (size_t at = 0; (at = yaml.find("\"calib/", at)) != std::string::npos; at += 7) {
    yaml.insert(at + 1, TestData("right_matmul") + "/");
  }
  testing::WriteFile(tmp.Path("right_matmul.yaml"), yaml);
  std::vector<std::string> warnings;
  Result<RightMatmulMap> map = LoadRightMatmulYaml(tmp.Path("right_matmul.yaml"), &warnings);
  ASSERT_TRUE(map.ok()) << map.status().ToString();
  const RightMatmul rm = RightMatmul::Load({*map}, &warnings);
  EXPECT_EQ(warnings.size(), 2u);  // the entry that is not a list, the bfloat16 .pt

  CompareOptions options;
  options.target_path = TestData("right_matmul/npu/dump.json");
  options.golden_path = TestData("right_matmul/bench/dump.json");
  options.output_dir = tmp.Path("out");
  options.write_xlsx = false;
  options.right_matmul = &rm;
  const Result<CompareReport> report = RunCompare(options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  msprobe_csv::ExpectSameCsv(report->pairs.at(0).outputs.at(0), TestData("right_matmul/msprobe/right_matmul.csv"));
  EXPECT_EQ(rm.failures(), 2u);  // the 5x5 matrix, the bfloat16 one
}

}  // namespace
}  // namespace msprobe::compare
