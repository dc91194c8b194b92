// msprobe-compare --align as a whole job (docs/compare.md §3.8): an aligned pair is compared like any
// other in tensor, statistics and md5 mode (tests/data/align: the aligned softmax calls hold the same
// values on both sides), every output gets the Match column, and a run over rank directories aligns
// each rank.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/dump/text/csv_reader.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;
using msprobe::testing::ReadFile;
using msprobe::testing::TempDir;
using msprobe::testing::TestData;

// A csv's rows as column name → cell.
std::vector<std::map<std::string, std::string>> ReadRows(const std::string& path) {
  const std::string text = ReadFile(path);
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  const Status read = ReadCsv(AsBytes(text), path, [&](uint64_t, std::span<const std::string_view> fields) {
    if (header.empty()) {
      header.assign(fields.begin(), fields.end());
      return Status::Ok();
    }
    auto& row = rows.emplace_back();
    for (size_t i = 0; i < fields.size() && i < header.size(); ++i) row[header[i]] = std::string(fields[i]);
    return Status::Ok();
  });
  EXPECT_TRUE(read.ok()) << read.ToString();
  return rows;
}

// Compares a softmax fixture with --align; returns its csv's rows.
std::vector<std::map<std::string, std::string>> CompareSoftmax(const std::string& mode, const TempDir& dir) {
  CompareOptions options;
  options.target_path = TestData("align/softmax/" + mode + "/target/dump.json");
  options.golden_path = TestData("align/softmax/" + mode + "/golden/dump.json");
  options.output_dir = dir.Path(mode);
  options.write_xlsx = false;
  options.align = true;
  Result<CompareReport> report = RunCompare(options);
  EXPECT_TRUE(report.ok()) << report.status().ToString();
  if (!report.ok() || report->pairs.empty()) return {};
  EXPECT_FALSE(report->pairs[0].streamed);  // --align compares in memory
  return ReadRows(report->pairs[0].outputs.at(0));
}

TEST(AlignCompareTest, AlignedRowsAreComparedInEveryMode) {
  TempDir dir;
  for (const char* mode : {"tensor", "statistics", "md5"}) {
    size_t aligned = 0;
    for (const auto& row : CompareSoftmax(mode, dir)) {
      const std::string& match = row.at("Match");
      if (!match.starts_with("aligned (")) continue;
      ++aligned;
      EXPECT_EQ(row.at("Result"), "pass") << mode << ": " << row.at("NPU Name");
      if (std::string(mode) == "tensor" && row.at("NPU Tensor Shape") != "[]") {
        EXPECT_EQ(row.at("Cosine"), "1.0") << row.at("NPU Name");
      } else if (std::string(mode) == "statistics") {
        EXPECT_EQ(row.at("NormRelativeErr"), "0") << row.at("NPU Name");
      } else if (std::string(mode) == "md5") {
        EXPECT_EQ(row.at("NPU MD5"), row.at("BENCH MD5")) << row.at("NPU Name");
      }
    }
    EXPECT_EQ(aligned, 10u) << mode;  // the softmax rows
  }
}

TEST(AlignCompareTest, EveryRowSaysHowItWasMatched) {
  TempDir dir;
  std::map<std::string, size_t> kinds;
  for (const auto& row : CompareSoftmax("statistics", dir)) {
    const std::string& match = row.at("Match");
    ++kinds[match.starts_with("aligned (") ? "aligned" : match];
    EXPECT_EQ(match == "unmatched", row.at("Bench Name") == "N/A") << row.at("NPU Name");
  }
  EXPECT_EQ(kinds.size(), 3u);  // name, aligned, unmatched (the extra mul)
  EXPECT_EQ(kinds["aligned"], 10u);
  EXPECT_EQ(kinds["unmatched"], 6u);
}

// Two rank directories, each holding the softmax pair: each rank is aligned on its own.
TEST(AlignCompareTest, EachRankOfAMultiRankRunIsAligned) {
  TempDir dir;
  for (const char* side : {"target", "golden"}) {
    for (const char* rank : {"rank0", "rank1"}) {
      const fs::path to = dir.root() / side / "step0" / rank;
      fs::create_directories(to);
      fs::copy_file(TestData(std::string("align/softmax/statistics/") + side + "/dump.json"), to / "dump.json");
    }
  }
  CompareOptions options;
  options.target_path = (dir.root() / "target" / "step0").string();
  options.golden_path = (dir.root() / "golden" / "step0").string();
  options.output_dir = dir.Path("out");
  options.write_xlsx = false;
  options.align = true;
  Result<CompareReport> report = RunCompare(options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->pairs.size(), 2u);
  for (const PairResult& pair : report->pairs) {
    size_t aligned = 0;
    for (const auto& row : ReadRows(pair.outputs.at(0))) aligned += row.at("Match").starts_with("aligned (");
    EXPECT_EQ(aligned, 10u) << pair.label;
  }
}

}  // namespace
}  // namespace msprobe::compare
