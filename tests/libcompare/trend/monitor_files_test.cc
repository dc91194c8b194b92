// The monitor's files as data2db reads them: directory names (msprobe's regular expression and its
// time), csv file names, and the csv rows.
#include <gtest/gtest.h>

#include <vector>

#include "test_support.h"
#include "trend/monitor_csv_internal.h"
#include "trend/monitor_layout_internal.h"

namespace msprobe::compare::internal {
namespace {

TEST(MonitorLayout, DirectoryNames) {
  const auto parsed = ParseMonitorDirName("Dec03_21-34-40-rank12-0a1b2c3d");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->time, "Dec03_21-34-40");
  EXPECT_EQ(parsed->rank, 12);
  EXPECT_EQ(ParseMonitorDirName("x-rank00007-")->rank, 7);
  EXPECT_EQ(ParseMonitorDirName("-rank1-")->time, "");
  EXPECT_EQ(ParseMonitorDirName("a-rank1-rank2-x")->time, "a-rank1");  // the longest time first, as it backtracks
  for (const char* name : {"Dec03_21-34-40-rank-x", "Dec03-rank123456-x", "not_a_monitor_dir", "Dec03_21-34-40-rank1",
                           "123456789012345678901-rank0-x", "a b-rank0-x"}) {
    EXPECT_FALSE(ParseMonitorDirName(name)) << name;
  }
}

TEST(MonitorLayout, Times) {
  for (const char* ok : {"Dec03_21-34-40", "jan1_0-0-0", "FEB28_23-59-61", "Nov30_9-5-7"}) EXPECT_TRUE(ValidMonitorTime(ok)) << ok;
  for (const char* bad : {"", "Dez03_21-34-40", "Feb29_00-00-00", "Dec32_00-00-00", "Dec03_24-00-00", "Dec03_21-60-00",
                          "Dec03_21-34-40x", "Dec03-21-34-40", "Dec003_21-34-40"}) {
    EXPECT_FALSE(ValidMonitorTime(bad)) << bad;
  }
}

TEST(MonitorLayout, FileNames) {
  EXPECT_EQ(MonitorMetricOfFile("actv_0-9.csv"), 0u);
  EXPECT_EQ(MonitorMetricOfFile("exp_avg_sq_10-19.csv"), 3u);
  EXPECT_EQ(MonitorMetricOfFile("grad_reduced_0-0.csv.bak"), 5u);  // msprobe matches the start only
  for (const char* name : {"unknown_0-0.csv", "actv_0-0.txt", "actv_x-0.csv", "actv_0_0.csv", "actv.csv", "actv_0-.csv"}) {
    EXPECT_FALSE(MonitorMetricOfFile(name)) << name;
  }
}

struct Read {
  MonitorCsvSummary summary;
  std::vector<MonitorCsvRow> rows;
  std::vector<std::string> names;  // row.name views the text
};

Result<Read> ReadText(const std::string& text) {
  Read read;
  Result<MonitorCsvSummary> summary = ReadMonitorCsv(AsBytes(text), "actv_0-0.csv", [&](const MonitorCsvRow& row) {
    read.rows.push_back(row);
    read.names.emplace_back(row.name);
    return Status::Ok();
  });
  if (!summary.ok()) return summary.status();
  read.summary = *summary;
  return read;
}

TEST(MonitorCsv, RowsAsPandasReadsThem) {
  Result<Read> r = ReadText(
      "vpp_stage,name,step,micro_step,norm,min,unknown,max,nans\n"
      "0,module.layers.0.mlp.input,3,1,1.5,-2,9,inf,nan\n"
      "1,,4.0,0,1e12,,x,-inf,0\n"
      "x,bad.vpp,0,0,1,1,1,1,1\n"
      "0,short,5,0\n"
      "0,no.micro.step,5\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->summary.skipped, 2u);  // vpp_stage "x"; micro_step missing (int() of pandas' NaN fails)
  EXPECT_EQ(r->summary.stat_columns, 0b10111u);  // norm, min, max, nans
  ASSERT_EQ(r->rows.size(), 3u);
  EXPECT_EQ(r->names[0], "module.layers.0.mlp.input");
  EXPECT_EQ(r->rows[0].step, 3);
  EXPECT_EQ(r->rows[0].micro_step, 1);
  EXPECT_EQ(r->rows[0].stats[0], 1.5);
  EXPECT_EQ(r->rows[0].stats[1], -2.0);
  EXPECT_EQ(r->rows[0].stats[2], 1e9 + 1);
  EXPECT_FALSE(r->rows[0].stats[4].has_value());
  EXPECT_FALSE(r->rows[0].stats[5].has_value());  // mean: no such column
  EXPECT_EQ(r->names[1], "nan");  // str() of pandas' missing value
  EXPECT_EQ(r->rows[1].vpp_stage, 1);
  EXPECT_EQ(r->rows[1].step, 4);
  EXPECT_EQ(r->rows[1].stats[0], 1e9);
  EXPECT_FALSE(r->rows[1].stats[1].has_value());
  EXPECT_EQ(r->rows[2].step, 5);  // a short row: the missing cells are missing values
  EXPECT_FALSE(r->rows[2].stats[0].has_value());
}

TEST(MonitorCsv, WithoutStepColumns) {
  Result<Read> r = ReadText("vpp_stage,name,norm\n0,a,1\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rows[0].step, 0);
  EXPECT_EQ(r->rows[0].micro_step, 0);
  r = ReadText("name,norm\na,1\n");  // no vpp_stage: every row passed over
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->summary.skipped, 1u);
}

TEST(MonitorCsv, Refused) {
  EXPECT_STATUS(ReadText("vpp_stage,name\n0,a,extra\n"), Code::kInvalidInput, "line 2: 3 fields, the header has 2");
  EXPECT_STATUS(ReadText("vpp_stage,name\n0,\"open\n"), Code::kInvalidInput, "quoted field");
}

}  // namespace
}  // namespace msprobe::compare::internal
