// --consistent_check end to end (docs/compare.md §3.9): our compare of tests/data/verl's train and
// rollout dumps against the csv (and xlsx) msprobe itself wrote (tests/data/verl/README.md).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "libcompare/jobs/msprobe_csv.h"
#include "msprobe/compare/jobs/compare_job.h"
#include "msprobe/compare/xlsx/xlsx_reader.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

using testing::TestData;

// The single pair's outputs of a --consistent_check compare of tests/data/verl/<backend>/<sub>.
std::vector<std::string> CompareVerl(const testing::TempDir& tmp, ConsistentBackend backend, const std::string& sub,
                                     bool csv) {
  const std::string dir = TestData("verl/" + std::string(ConsistentBackendName(backend)) + "/" + sub);
  CompareOptions options;
  options.target_path = dir + "/train/dump.json";
  options.golden_path = dir + "/infer/dump.json";
  options.output_dir = tmp.Path("out");
  options.write_csv = csv;
  options.write_xlsx = !csv;
  options.consistent = backend;
  const Result<CompareReport> report = RunCompare(options);
  EXPECT_TRUE(report.ok()) << report.status().ToString();
  if (!report.ok() || report->pairs.size() != 1) return {};
  return report->pairs[0].outputs;
}

TEST(ConsistentGoldenTest, FsdpAsMsprobe) {
  for (const char* sub : {"tensor", "stat"}) {
    testing::TempDir tmp;
    msprobe_csv::ExpectSameCsv(CompareVerl(tmp, ConsistentBackend::kFsdp, sub, true).at(0),
                               TestData(std::string("verl/msprobe/verl_fsdp_") + sub + ".csv"));
  }
}

TEST(ConsistentGoldenTest, MegatronAsMsprobe) {
  for (const char* sub : {"tensor", "stat"}) {
    testing::TempDir tmp;
    msprobe_csv::ExpectSameCsv(CompareVerl(tmp, ConsistentBackend::kMegatron, sub, true).at(0),
                               TestData(std::string("verl/msprobe/verl_megatron_") + sub + ".csv"));
  }
}

// With the xlsx alone msprobe joins the training names with ";\n": its workbook's cells, ours.
TEST(ConsistentGoldenTest, XlsxAloneJoinsNamesByLines) {
  testing::TempDir tmp;
  const std::string ours = CompareVerl(tmp, ConsistentBackend::kFsdp, "tensor", false).at(0);
  const std::string ours_bytes = testing::ReadFile(ours);
  const std::string theirs_bytes = testing::ReadFile(TestData("verl/msprobe/verl_fsdp_tensor.xlsx"));
  const auto as_bytes = [](const std::string& s) { return Bytes(reinterpret_cast<const std::byte*>(s.data()), s.size()); };
  const auto ours_rows = ReadXlsxSheetRows(as_bytes(ours_bytes), ours, 0);
  const auto theirs_rows = ReadXlsxSheetRows(as_bytes(theirs_bytes), "msprobe.xlsx", 0);
  ASSERT_TRUE(ours_rows.ok()) << ours_rows.status().ToString();
  ASSERT_TRUE(theirs_rows.ok()) << theirs_rows.status().ToString();
  ASSERT_EQ(ours_rows->size(), theirs_rows->size());
  const std::vector<XlsxCell>& header = theirs_rows->front();
  for (size_t r = 0; r < ours_rows->size(); ++r) {
    const auto &a = (*ours_rows)[r], &b = (*theirs_rows)[r];
    ASSERT_EQ(a.size(), b.size()) << "row " << r;
    for (size_t c = 0; c < a.size(); ++c) {
      const std::string column = header[c].text;
      EXPECT_EQ(a[c].type, b[c].type) << "row " << r << " column " << column;
      EXPECT_EQ(a[c].text, b[c].text) << "row " << r << " column " << column;
      const double tolerance = column == "EucDist" ? 1e-12 * std::fabs(b[c].number) : 0;
      EXPECT_NEAR(a[c].number, b[c].number, tolerance) << "row " << r << " column " << column;
    }
  }
  EXPECT_NE((*ours_rows)[22][0].text.find(";\n"), std::string::npos);
}

}  // namespace
}  // namespace msprobe::compare
