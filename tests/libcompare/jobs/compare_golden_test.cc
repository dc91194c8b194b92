// End-to-end agreement with msprobe's own results: our compare of the shared 2-rank dumps, cell by cell
// against msprobe's xlsx (converted to CSV by tests/data/compare/golden/convert_msprobe_xlsx.py).
#include <gtest/gtest.h>

#include <mutex>

#include <filesystem>
#include <string>
#include <vector>

#include "libcompare/jobs/msprobe_csv.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

// Our csv of one pair against msprobe's for `rank` of the shared 2-rank dumps. msprobe's xlsx keeps
// 15-16 significant digits.
void ExpectCsvSameAsMsprobe(const std::string& ours_csv, const std::string& mode, const std::string& rank) {
  msprobe_csv::ExpectSameCsv(ours_csv, testing::TestData("compare/golden/msprobe_cmp_" + mode + "_" + rank + ".csv"),
                             1e-15);
}

// A compare of `target` with `golden` writing its csv files only, into `out`.
CompareOptions CsvOnly(const std::string& target, const std::string& golden, const std::string& out) {
  CompareOptions options;
  options.target_path = target;
  options.golden_path = golden;
  options.output_dir = out;
  options.write_xlsx = false;
  return options;
}

// Progress reports (done, total) of one bar: (0, bytes) first, the same total throughout, never
// counting back, (bytes, bytes) last.
void ExpectOneBar(const std::vector<std::pair<uint64_t, uint64_t>>& reports, uint64_t bytes) {
  ASSERT_FALSE(reports.empty());
  EXPECT_EQ(reports.front(), std::make_pair(uint64_t{0}, bytes));
  EXPECT_EQ(reports.back(), std::make_pair(bytes, bytes));
  for (size_t i = 1; i < reports.size(); ++i) {
    EXPECT_EQ(reports[i].second, bytes) << "report " << i;
    EXPECT_GE(reports[i].first, reports[i - 1].first) << "report " << i;
  }
}

void ExpectSameAsMsprobe(const std::string& target, const std::string& golden, const std::string& mode) {
  testing::TempDir tmp;
  const CompareOptions options = CsvOnly(target, golden, tmp.Path("out"));
  auto report = RunCompare(options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->pairs.size(), 2u);
  for (const PairResult& pair : report->pairs) {
    ExpectCsvSameAsMsprobe(pair.outputs.at(0), mode, fs::path(pair.target_json).parent_path().filename().string());
  }
}

TEST(CompareGoldenTest, TensorModeTwoRanksAgreeWithMsprobe) {
  const std::string samples = std::string(MSPROBE_SOURCE_DIR) + "/samples/dist2";
  ExpectSameAsMsprobe(samples + "/npu_t/step0", samples + "/bench_t/step0", "t");
}

// Two ranks may be compared at once; the report keeps rank order.
// One bar for the whole run (docs/compare.md §7.5): its total, the bytes of both target dump.json
// files, is reported before the first pair starts and never changes; it counts up once to that total.
TEST(CompareGoldenTest, PairsAreReportedInOrderWithOneProgressTotalFixedAtTheStart) {
  const std::string samples = std::string(MSPROBE_SOURCE_DIR) + "/samples/dist2";
  testing::TempDir tmp;
  const CompareOptions options = CsvOnly(samples + "/npu_t/step0", samples + "/bench_t/step0", tmp.Path("out"));
  const uint64_t bytes = fs::file_size(options.target_path + "/rank0/dump.json") +
                         fs::file_size(options.target_path + "/rank1/dump.json");
  std::mutex mutex;
  std::vector<std::pair<uint64_t, uint64_t>> reports;
  const JobContext context{.progress = [&](std::string_view what, uint64_t done, uint64_t total) {
    const std::lock_guard<std::mutex> lock(mutex);
    EXPECT_EQ(what, "bytes");
    reports.emplace_back(done, total);
  }};
  auto report = RunCompare(options, context);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->pairs.size(), 2u);
  EXPECT_EQ(report->pairs[0].label, "rank0");
  EXPECT_EQ(report->pairs[1].label, "rank1");
  ExpectOneBar(reports, bytes);
  EXPECT_GT(reports.size(), 3u);  // the tensor rows move the bar, not only the pairs' ends
}

// A statistics pair streamed one row at a time: the bar has its total from the start, moves with the
// batches and is full when the pair is done.
TEST(CompareGoldenTest, StatisticsCompareReportsProgressFromStartToEnd) {
  const std::string data = std::string(MSPROBE_SOURCE_DIR) + "/tests/data/moe/stat";
  testing::TempDir tmp;
  CompareOptions options = CsvOnly(data + "/npu/dump.json", data + "/bench/dump.json", tmp.Path("out"));
  options.stream_batch_rows = 1;
  const uint64_t bytes = fs::file_size(options.target_path);
  std::vector<std::pair<uint64_t, uint64_t>> reports;
  const JobContext context{.progress = [&](std::string_view, uint64_t done, uint64_t total) {
    reports.emplace_back(done, total);
  }};
  auto report = RunCompare(options, context);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->pairs.size(), 1u);
  EXPECT_TRUE(report->pairs[0].streamed);
  ASSERT_GT(reports.size(), 3u);
  ExpectOneBar(reports, bytes);
  EXPECT_LT(reports[reports.size() - 2].first, bytes);  // full only once the pair is done
}

// Six ranks, each a copy of rank 0 or 1: the later pairs are built in the row storage the earlier
// ones passed on, and must come out as if alone.
TEST(CompareGoldenTest, PairsInReusedRowStorageAgreeWithMsprobe) {
  const std::string samples = std::string(MSPROBE_SOURCE_DIR) + "/samples/dist2";
  testing::TempDir tmp;
  for (const char* side : {"npu_t", "bench_t"}) {
    fs::create_directories(tmp.Path(std::string(side) + "/step0"));
    for (int rank = 0; rank < 6; ++rank) {
      fs::create_directory_symlink(samples + "/" + side + "/step0/rank" + std::to_string(rank % 2),
                                   tmp.Path(std::string(side) + "/step0/rank" + std::to_string(rank)));
    }
  }
  auto report = RunCompare(CsvOnly(tmp.Path("npu_t/step0"), tmp.Path("bench_t/step0"), tmp.Path("out")));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->pairs.size(), 6u);
  for (size_t rank = 0; rank < 6; ++rank) {
    ExpectCsvSameAsMsprobe(report->pairs[rank].outputs.at(0), "t", "rank" + std::to_string(rank % 2));
  }
}

TEST(CompareGoldenTest, StatisticsModeTwoRanksAgreeWithMsprobe) {
  MSP_REQUIRE_SHARED(dist2, "msprobe_samples/dist2");
  ExpectSameAsMsprobe(dist2 + "/npu_stat/step0", dist2 + "/bench_stat/step0", "stat");
}

}  // namespace
}  // namespace msprobe::compare
