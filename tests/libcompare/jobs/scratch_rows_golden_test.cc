// MoE scratch rows end to end (docs/compare.md §4.2 step 3): our compare of tests/data/moe against
// the csv msprobe itself wrote for the same dumps (tests/data/moe/README.md), in every mode it runs.
#include <gtest/gtest.h>

#include <string>

#include "libcompare/jobs/msprobe_csv.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

using testing::TestData;

// The single pair's csv of a compare of tests/data/moe/<sub> with these options.
std::string CompareMoe(const testing::TempDir& tmp, const std::string& sub, CompareOptions options) {
  options.target_path = TestData("moe/" + sub + "/npu/dump.json");
  options.golden_path = TestData("moe/" + sub + "/bench/dump.json");
  options.output_dir = tmp.Path("out");
  options.write_xlsx = false;
  const Result<CompareReport> report = RunCompare(options);
  EXPECT_TRUE(report.ok()) << report.status().ToString();
  if (!report.ok() || report->pairs.size() != 1) return "";
  return report->pairs[0].outputs.at(0);
}

// Every column as msprobe wrote it; EucDist within 1e-12 (row gmm.4 differs in its last digit:
// msprobe sums the squares left to right, we in blocks).
TEST(ScratchRowsGoldenTest, TensorModeCleansTheTargetOutputsAsMsprobe) {
  testing::TempDir tmp;
  msprobe_csv::ExpectSameCsv(CompareMoe(tmp, "tensor", {}), TestData("moe/msprobe/moe_tensor.csv"));
}

// -fm writes the same table for these dumps (msprobe's too).
TEST(ScratchRowsGoldenTest, FuzzyMatchCleansAlike) {
  testing::TempDir tmp;
  CompareOptions options;
  options.fuzzy_match = true;
  msprobe_csv::ExpectSameCsv(CompareMoe(tmp, "tensor", options), TestData("moe/msprobe/moe_tensor.csv"));
}

// Statistics mode has no tensors: nothing is cleaned, streamed or not.
TEST(ScratchRowsGoldenTest, StatisticsModeIsUntouched) {
  for (size_t batch : {size_t{0}, size_t{16}}) {
    testing::TempDir tmp;
    CompareOptions options;
    options.stream_batch_rows = batch;
    msprobe_csv::ExpectSameCsv(CompareMoe(tmp, "stat", options), TestData("moe/msprobe/moe_stat.csv"));
  }
}

}  // namespace
}  // namespace msprobe::compare
