#include "msprobe/dump/kernel/statistic_job.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "msprobe/dump/kernel/statistic_csv.h"
#include "test_support.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;

// tests/data/kernel/expected_statistic.txt, numpy's statistics of the fixture tree's tensors
// (gen_kernel_fixtures.py): op_name timestamp io slot, then max min mean count nan -inf +inf zero norm.
std::map<std::string, std::vector<std::string>> NumpyStatistics() {
  std::map<std::string, std::vector<std::string>> out;
  std::ifstream in(testing::TestData("kernel/expected_statistic.txt"));
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string op_name, timestamp, io, slot;
    fields >> op_name >> timestamp >> io >> slot;
    std::vector<std::string>& values = out[op_name + " " + timestamp + " " + io + " " + slot];
    for (std::string v; fields >> v;) values.push_back(v);
  }
  return out;
}

void ExpectNear(const std::string& ours, const std::string& numpy, const std::string& what) {
  if (numpy == "nan") {
    EXPECT_EQ(ours, "nan") << what;
    return;
  }
  const double a = std::stod(ours), b = std::stod(numpy);
  EXPECT_LE(std::fabs(a - b), 1e-12 * std::fabs(b) + 1e-15) << what << ": " << ours << " vs numpy " << numpy;
}

TEST(StatisticJobTest, WritesNumpysStatisticsForTheFixtureTree) {
  testing::TempDir tmp;
  fs::copy(testing::TestData("kernel/npu"), tmp.root() / "tree", fs::copy_options::recursive);
  uint64_t last_done = 0, last_total = 0;
  const Result<KernelStatisticReport> report =
      RunKernelStatistic({(tmp.root() / "tree").string(), false},
                         {.progress = [&](std::string_view what, uint64_t done, uint64_t total) {
                           EXPECT_EQ(what, "tensor files");
                           last_done = done;
                           last_total = total;
                         }});
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_FALSE(report->stopped);
  ASSERT_EQ(report->written.size(), 1u);
  const fs::path dir = tmp.root() / "tree" / "rank_0" / "Net" / "0" / "0";
  EXPECT_EQ(report->written[0].dir, dir.string());
  EXPECT_EQ(report->written[0].tensors, 9u);
  EXPECT_EQ(last_done, 9u);
  EXPECT_EQ(last_total, 9u);

  const std::string text = testing::ReadFile((dir / "statistic.csv").string());
  EXPECT_TRUE(text.starts_with(
      "Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,Max Value,Min Value,Avg Value,"
      "Count,Nan Count,Negative Inf Count,Positive Inf Count,Zero Count,L2Norm Value\n"));
  EXPECT_NE(text.find("\nAdd,Default_Add-op0,0,0,100,input,0,48,float32,\"(3,4)\","), std::string::npos);
  Result<StatisticCsv> csv = ParseStatisticCsv(text, "statistic.csv");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  const std::map<std::string, std::vector<std::string>> numpy = NumpyStatistics();
  ASSERT_EQ(csv->rows.size(), numpy.size());
  for (const std::vector<std::string>& row : csv->rows) {
    const std::string key = row[1] + " " + row[4] + " " + row[5] + " " + row[6];
    const auto it = numpy.find(key);
    ASSERT_NE(it, numpy.end()) << key;
    const std::vector<std::string>& want = it->second;  // max min mean count nan -inf +inf zero norm
    ExpectNear(row[10], want[0], key + " max");
    ExpectNear(row[11], want[1], key + " min");
    ExpectNear(row[12], want[2], key + " mean");
    for (size_t i = 3; i < 8; ++i) EXPECT_EQ(row[10 + i], want[i]) << key << " count column " << i;
    ExpectNear(row[18], want[8], key + " norm");
  }
}

TEST(StatisticJobTest, KeepsAnExistingFileUnlessForced) {
  testing::TempDir tmp;
  fs::copy(testing::TestData("kernel/npu"), tmp.root() / "tree", fs::copy_options::recursive);
  const std::string tree = (tmp.root() / "tree").string();
  const Result<KernelStatisticReport> first = RunKernelStatistic({tree, false});
  ASSERT_TRUE(first.ok() && !first->stopped);
  const Result<KernelStatisticReport> again = RunKernelStatistic({tree, false});
  ASSERT_TRUE(again.ok() && again->stopped);
  EXPECT_STATUS(*again->stopped, Code::kInvalidInput, "exists already (use --force to replace it)");
  EXPECT_TRUE(again->written.empty());
  const Result<KernelStatisticReport> forced = RunKernelStatistic({tree, true});
  ASSERT_TRUE(forced.ok());
  EXPECT_FALSE(forced->stopped);
  EXPECT_EQ(forced->written.size(), 1u);
}

TEST(StatisticJobTest, TreesWithoutTensors) {
  testing::TempDir tmp;
  fs::create_directories(tmp.root() / "rank_0");
  EXPECT_STATUS(RunKernelStatistic({tmp.root().string(), false}), Code::kInvalidInput,
                "no kernel dump tensor files found");
  EXPECT_STATUS(RunKernelStatistic({tmp.Path("missing"), false}), Code::kNotFound, "no such directory");
}

}  // namespace
}  // namespace msprobe
