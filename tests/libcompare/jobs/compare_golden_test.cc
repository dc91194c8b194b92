// End-to-end agreement with msprobe's own results: our compare of the shared 2-rank dumps, cell by cell
// against msprobe's xlsx (converted to CSV by tests/data/compare/golden/convert_msprobe_xlsx.py).
#include <gtest/gtest.h>

#include <mutex>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "msprobe/compare/jobs/compare_job.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;
using Table = std::vector<std::vector<std::string>>;

// RFC 4180 fields, one record per line (no cell of these files holds a newline).
Table ReadCsv(const std::string& path) {
  Table table;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> row(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted) {
        if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') row.back() += line[++i];
        else if (c == '"') quoted = false;
        else row.back() += c;
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        row.emplace_back();
      } else {
        row.back() += c;
      }
    }
    table.push_back(std::move(row));
  }
  return table;
}

bool ParseDouble(const std::string& s, double* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

// msprobe's xlsx keeps 15-16 significant digits; EucDist may differ in the last ulps (docs/compare.md §4.2).
bool SameCell(const std::string& column, std::string ours, const std::string& theirs) {
  if (ours == " inf" || ours == " -inf") ours.erase(0, 1);  // G3 CSV's spelling of a float inf
  if (ours == theirs) return true;
  double a, b;
  if (!ParseDouble(ours, &a) || !ParseDouble(theirs, &b)) return false;
  const double rtol = column == "EucDist" ? 1e-12 : 1e-15;
  return std::fabs(a - b) <= rtol * std::max(std::fabs(a), std::fabs(b));
}

// Our csv of one pair against msprobe's for `rank` of the shared 2-rank dumps.
void ExpectCsvSameAsMsprobe(const std::string& ours_csv, const std::string& mode, const std::string& rank) {
  const Table ours = ReadCsv(ours_csv);
  const Table theirs = ReadCsv(testing::TestData("compare/golden/msprobe_cmp_" + mode + "_" + rank + ".csv"));
  ASSERT_EQ(ours.size(), theirs.size()) << rank;
  ASSERT_EQ(ours[0], theirs[0]) << rank << ": header";
  for (size_t r = 1; r < ours.size(); ++r) {
    ASSERT_EQ(ours[r].size(), theirs[r].size()) << rank << " row " << r;
    for (size_t c = 0; c < ours[r].size(); ++c) {
      EXPECT_TRUE(SameCell(ours[0][c], ours[r][c], theirs[r][c]))
          << rank << " row " << r << " (" << ours[r][0] << ") column " << ours[0][c] << ": ours '" << ours[r][c]
          << "', msprobe '" << theirs[r][c] << "'";
    }
  }
}

void ExpectSameAsMsprobe(const std::string& target, const std::string& golden, const std::string& mode) {
  testing::TempDir tmp;
  CompareOptions options;
  options.target_path = target;
  options.golden_path = golden;
  options.output_dir = tmp.Path("out");
  options.write_xlsx = false;
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

// Two ranks may be compared at once; the report keeps rank order and the progress adds both up.
TEST(CompareGoldenTest, PairsAreReportedInOrderWithProgressSummedOverPairs) {
  const std::string samples = std::string(MSPROBE_SOURCE_DIR) + "/samples/dist2";
  testing::TempDir tmp;
  CompareOptions options;
  options.target_path = samples + "/npu_t/step0";
  options.golden_path = samples + "/bench_t/step0";
  options.output_dir = tmp.Path("out");
  options.write_xlsx = false;
  std::mutex mutex;
  uint64_t last_done = 0, last_total = 0, calls = 0;
  bool done_within_total = true;
  const JobContext context{.progress = [&](std::string_view, uint64_t done, uint64_t total) {
    const std::lock_guard<std::mutex> lock(mutex);
    done_within_total = done_within_total && done <= total;
    last_done = done;
    last_total = total;
    ++calls;
  }};
  auto report = RunCompare(options, context);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->pairs.size(), 2u);
  EXPECT_EQ(report->pairs[0].label, "rank0");
  EXPECT_EQ(report->pairs[1].label, "rank1");
  const uint64_t rows = report->pairs[0].rows + report->pairs[1].rows;
  EXPECT_EQ(calls, rows);  // one report per compared tensor row
  EXPECT_EQ(last_total, rows);
  EXPECT_TRUE(done_within_total);
  EXPECT_GT(last_done, 0u);
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
  CompareOptions options;
  options.target_path = tmp.Path("npu_t/step0");
  options.golden_path = tmp.Path("bench_t/step0");
  options.output_dir = tmp.Path("out");
  options.write_xlsx = false;
  auto report = RunCompare(options);
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
