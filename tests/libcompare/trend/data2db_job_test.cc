// RunData2Db on small dump roots written here: the formats, what it warns of, its progress, its
// errors, and that a failed import leaves no database.
#include "msprobe/compare/trend/data2db_job.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test_support.h"

namespace msprobe::compare {
namespace {

using testing::TempDir;
using testing::WriteFile;
namespace fs = std::filesystem;

constexpr const char* kTensor = R"({"type": "torch.Tensor", "dtype": "torch.float32", "Max": 2, "Min": -1, "Mean": 0.5, "Norm": 3})";

void WriteRank(const fs::path& dir, const std::string& data, const std::string& construct) {
  fs::create_directories(dir);
  WriteFile((dir / "dump.json").string(), R"({"task": "statistics", "level": "L0", "data": {)" + data + "}}");
  WriteFile((dir / "construct.json").string(), construct);
}

// Two steps of two ranks (one of them a proc dir), one module each.
fs::path DumpRoot(const TempDir& dir) {
  const fs::path root = dir.root() / "dump";
  const std::string entry = std::string(R"("Module.m.Linear.forward.0": {"input_args": [)") + kTensor +
                            R"(], "output": [)" + kTensor + "]}";
  for (const char* rank : {"step0/rank0", "step0/proc9", "step1/rank0", "step1/proc9"}) {
    WriteRank(root / rank, entry, R"({"Module.m.Linear.forward.0": null})");
  }
  fs::create_directories(root / "step2" / "rank3");  // no dump.json: a warning
  return root;
}

// Options reading DumpRoot(dir) into dir/out.
Data2DbOptions OptionsFor(const TempDir& dir) {
  Data2DbOptions options;
  options.data_dir = DumpRoot(dir).string();
  options.db_dir = dir.Path("out");
  return options;
}

struct ImportRun {
  Result<Data2DbReport> report = Status::Internal("", "not run");
  std::vector<std::string> warnings;
  uint64_t done = 0, total = 0;
};

ImportRun Import(const Data2DbOptions& options) {
  ImportRun run;
  JobContext ctx;
  ctx.warn = [&](std::string_view source, std::string_view message) {
    run.warnings.push_back(std::string(source) + ": " + std::string(message));
  };
  ctx.progress = [&](std::string_view, uint64_t done, uint64_t total) { run.done = done, run.total = total; };
  run.report = RunData2Db(options, ctx);
  return run;
}

TEST(RunData2Db, DumpRoot) {
  TempDir dir;
  Data2DbOptions options = OptionsFor(dir);
  options.db_dir = dir.Path("out/trend");
  const ImportRun run = Import(options);
  ASSERT_TRUE(run.report.ok()) << run.report.status().ToString();
  ASSERT_TRUE(run.report->dump_db);
  EXPECT_FALSE(run.report->monitor_db);
  const TrendDbSummary& db = *run.report->dump_db;
  EXPECT_EQ(db.path, dir.Path("out/trend/dump_data.trend.db"));
  EXPECT_EQ(db.files, 4u);
  EXPECT_EQ(db.rows, 8u);  // 2 tensors × 2 ranks × 2 steps
  EXPECT_EQ(db.targets, 2u);
  EXPECT_EQ(db.max_rank, 1);  // proc9 after rank0
  EXPECT_EQ(db.max_step, 1);
  EXPECT_EQ(run.done, 4u);
  EXPECT_EQ(run.total, 4u);
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_NE(run.warnings[0].find("step2/rank3: no dump.json"), std::string::npos) << run.warnings[0];

  options.micro_step = false;  // steps are the directories' numbers
  const ImportRun off = Import(options);
  ASSERT_TRUE(off.report.ok());
  EXPECT_EQ(off.report->dump_db->min_step, 0);
  EXPECT_EQ(off.report->dump_db->max_step, 1);
}

TEST(RunData2Db, FormatsFindNothing) {
  TempDir dir;
  Data2DbOptions options = OptionsFor(dir);
  options.format = TrendFormat::kMonitor;
  EXPECT_STATUS(Import(options).report, Code::kNotFound, "no monitor directory");
  options.data_dir = dir.Path("empty");  // not the database's own directory, which is refused
  fs::create_directories(options.data_dir);
  options.format = TrendFormat::kDump;
  EXPECT_STATUS(Import(options).report, Code::kNotFound, "no step<N> directory");
  options.format = TrendFormat::kAuto;
  EXPECT_STATUS(Import(options).report, Code::kNotFound, "neither a dump root");
  options.data_dir = dir.Path("nonexistent");
  EXPECT_STATUS(Import(options).report, Code::kNotFound, "no such directory");
}

// The database never goes into the dump it is read from (output_location.h).
TEST(RunData2Db, DatabaseInsideTheDataIsRefused) {
  TempDir dir;
  Data2DbOptions options = OptionsFor(dir);
  for (const std::string& db : {options.data_dir, options.data_dir + "/x.db", options.data_dir + "/step0/rank0/t"}) {
    options.db_dir = db;
    const Result<Data2DbReport> report = Import(options).report;
    EXPECT_STATUS(report, Code::kInvalidInput, "the output would land inside the input " + options.data_dir);
    EXPECT_EQ(report.status().source(), db);
  }
  EXPECT_FALSE(fs::exists(options.data_dir + "/x.db"));
  EXPECT_FALSE(fs::exists(options.data_dir + "/dump_data.trend.db"));
}

TEST(RunData2Db, FailedImportLeavesNoDatabase) {
  TempDir dir;
  Data2DbOptions options = OptionsFor(dir);
  WriteFile((fs::path(options.data_dir) / "step1/proc9/dump.json").string(), R"({"data": {"a": )");
  EXPECT_STATUS(Import(options).report, Code::kInvalidInput, "invalid JSON");
  EXPECT_TRUE(fs::is_empty(options.db_dir));
  fs::remove((fs::path(options.data_dir) / "step0/rank0/construct.json"));
  EXPECT_STATUS(Import(options).report, Code::kNotFound, "micro steps are read from it");
  EXPECT_TRUE(fs::is_empty(options.db_dir));
}

TEST(RunData2Db, Mapping) {
  TempDir dir;
  Data2DbOptions options = OptionsFor(dir);
  options.mapping_file = dir.Path("map.json");
  WriteFile(options.mapping_file, R"({"Linear": "Lin", "Lin": "L"})");
  const ImportRun run = Import(options);
  ASSERT_TRUE(run.report.ok()) << run.report.status().ToString();
  WriteFile(options.mapping_file, "[1]");
  EXPECT_STATUS(Import(options).report, Code::kInvalidInput, "JSON object");
  options.mapping_file = dir.Path("none.json");
  EXPECT_STATUS(Import(options).report, Code::kNotFound, "");
}

TEST(RunData2Db, DuplicateStepNumbers) {
  TempDir dir;
  Data2DbOptions options = OptionsFor(dir);
  fs::create_directories(fs::path(options.data_dir) / "step01");
  fs::copy(fs::path(options.data_dir) / "step1", fs::path(options.data_dir) / "step01", fs::copy_options::recursive);
  EXPECT_STATUS(Import(options).report, Code::kInvalidInput, "step01 and step1 are both step 1");
}

}  // namespace
}  // namespace msprobe::compare
