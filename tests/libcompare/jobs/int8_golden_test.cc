// int8 dumps end to end: our compare of tests/data/int8 against the csvs msprobe itself wrote
// (tests/data/int8/README.md), in memory and streamed: every statistic there is a number, so the
// integers of the NPU max/min columns print as floats, as pandas types those columns.
#include <gtest/gtest.h>

#include <string>

#include "libcompare/jobs/msprobe_csv.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

using testing::TestData;

void ExpectAsMsprobe(const std::string& sub, size_t stream_batch_rows) {
  testing::TempDir tmp;
  CompareOptions options;
  options.target_path = TestData("int8/" + sub + "/npu/dump.json");
  options.golden_path = TestData("int8/" + sub + "/bench/dump.json");
  options.output_dir = tmp.Path("out");
  options.write_xlsx = false;
  options.stream_batch_rows = stream_batch_rows;
  const Result<CompareReport> report = RunCompare(options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(testing::ReadFile(report->pairs.at(0).outputs.at(0)), testing::ReadFile(TestData("int8/msprobe/int8_" + sub + ".csv")))
      << sub << " streamed in " << stream_batch_rows;
}

TEST(Int8GoldenTest, TensorModeAsMsprobe) { ExpectAsMsprobe("tensor", 0); }

TEST(Int8GoldenTest, StatisticsModeAsMsprobeInMemoryAndStreamed) {
  ExpectAsMsprobe("stat", 0);
  ExpectAsMsprobe("stat", 3);  // the streamed pair sees the float64 columns at the end and is compared again
}

}  // namespace
}  // namespace msprobe::compare
