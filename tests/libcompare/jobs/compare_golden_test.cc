// End-to-end agreement with msprobe's own results: our compare of the shared 2-rank dumps, cell by cell
// against msprobe's xlsx (converted to CSV by tests/data/compare/golden/convert_msprobe_xlsx.py).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "libcompare/jobs/msprobe_csv.h"
#include "libcompare/jobs/progress_reports.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;
using progress_reports::BarReports;
using progress_reports::ExpectOneBar;

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
  BarReports bar;
  auto report = RunCompare(options, {.progress = bar.Callback()});
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->pairs.size(), 2u);
  EXPECT_EQ(report->pairs[0].label, "rank0");
  EXPECT_EQ(report->pairs[1].label, "rank1");
  ExpectOneBar(bar.reports(), bytes);
  EXPECT_GT(bar.reports().size(), 3u);  // the tensor rows move the bar, not only the pairs' ends
}

// The moe statistics pair compared with batches of `batch_rows` (0: whole, in memory): the bar's
// reports, after checking that it is one bar over the target dump.json's bytes.
std::vector<std::pair<uint64_t, uint64_t>> StatisticsBar(size_t batch_rows, bool streamed, uint64_t* bytes) {
  const std::string data = std::string(MSPROBE_SOURCE_DIR) + "/tests/data/moe/stat";
  testing::TempDir tmp;
  CompareOptions options = CsvOnly(data + "/npu/dump.json", data + "/bench/dump.json", tmp.Path("out"));
  options.stream_batch_rows = batch_rows;
  *bytes = fs::file_size(options.target_path);
  BarReports bar;
  auto report = RunCompare(options, {.progress = bar.Callback()});
  EXPECT_TRUE(report.ok()) << report.status().ToString();
  if (!report.ok()) return {};
  EXPECT_EQ(report->pairs.size(), 1u);
  EXPECT_EQ(report->pairs.at(0).streamed, streamed);
  ExpectOneBar(bar.reports(), *bytes);
  return bar.reports();
}

// A statistics pair streamed one row at a time: the bar has its total from the start, moves with the
// batches and is full when the pair is done.
TEST(CompareGoldenTest, StatisticsCompareReportsProgressFromStartToEnd) {
  uint64_t bytes = 0;
  const auto reports = StatisticsBar(1, /*streamed=*/true, &bytes);
  ASSERT_GT(reports.size(), 3u);
  EXPECT_LT(reports[reports.size() - 2].first, bytes);  // full only once the pair is done
}

// The same pair compared whole in memory: the bar moves at each of its steps (dumps read, rows
// matched, compared, written: a fifth of the share each), and is full once its files are committed.
TEST(CompareGoldenTest, StatisticsPairInMemoryReportsEachStep) {
  uint64_t bytes = 0;
  const auto reports = StatisticsBar(0, /*streamed=*/false, &bytes);
  ASSERT_EQ(reports.size(), 6u);
  for (size_t step = 1; step < 5; ++step) {
    EXPECT_NEAR(static_cast<double>(reports[step].first), static_cast<double>(bytes) * step / 5, 1.0) << step;
  }
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
