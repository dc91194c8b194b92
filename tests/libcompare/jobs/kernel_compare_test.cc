#include "msprobe/compare/jobs/kernel_compare.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "test_support.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

// Columns of docs/kernel_dump.md §6.4.
enum Col : size_t { kTargetName, kGoldenName, kTargetDtype, kGoldenDtype, kTargetShape, kGoldenShape, kTargetMax,
                    kGoldenMax = 10, kAccuracy = 14, kErr, kMetric0 };

const rapidjson::Document& Expected() {
  static const rapidjson::Document* doc = [] {
    auto* d = new rapidjson::Document;
    d->Parse<rapidjson::kParseNanAndInfFlag>(testing::ReadFile(testing::TestData("kernel/expected.json")).c_str());
    return d;
  }();
  return *doc;
}

Result<ResultTable> Compare(const std::string& target, const std::string& golden) {
  MSP_ASSIGN_OR_RETURN(std::vector<KernelDumpDir> n, FindKernelDumpDirs(testing::TestData(target)));
  MSP_ASSIGN_OR_RETURN(std::vector<KernelDumpDir> b, FindKernelDumpDirs(testing::TestData(golden)));
  return CompareKernelDirs(n, b);
}

// Rows by the original file name of the target (or golden) side.
std::map<std::string, const ResultRow*> ByName(const ResultTable& t, const std::vector<KernelDumpDir>& dirs) {
  std::map<std::string, std::string> original;
  for (const KernelDumpDir& d : dirs) {
    for (const KernelDumpFile& f : d.tensors) {
      original[f.path] = f.name.op_type + "." + f.name.op_name + "." + std::to_string(f.name.task_id) + "." +
                         std::to_string(f.name.stream_id) + "." + std::to_string(f.name.timestamp) + "." +
                         std::string(f.name.io()) + "." + std::to_string(f.name.slot) + "." + f.name.format + "." +
                         f.name.dtype_label + (f.name.npy ? ".npy" : "");
    }
  }
  std::map<std::string, const ResultRow*> rows;
  for (const ResultRow& r : t.rows) rows[original[r.target_name.empty() ? r.golden_name : r.target_name]] = &r;
  return rows;
}

void ExpectNear(const Cell& cell, const rapidjson::Value& v, double rel) {
  ASSERT_TRUE(cell.is_number()) << cell.ToPython();
  const double want = v.GetDouble();
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(cell.number()));
  } else {
    EXPECT_NEAR(cell.number(), want, std::fabs(want) * rel + 1e-12);
  }
}

TEST(KernelCompareTest, NpyTreesMatchNumpyMetrics) {
  Result<ResultTable> t = Compare("kernel/npu", "kernel/bench");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->Header().size(), 22u);
  EXPECT_EQ(t->Header()[kMetric0], "Cosine");
  EXPECT_EQ(t->Header().back(), "Five Thousandths Err Ratio");
  auto dirs = FindKernelDumpDirs(testing::TestData("kernel/npu"));
  auto bdirs = FindKernelDumpDirs(testing::TestData("kernel/bench"));
  dirs->insert(dirs->end(), bdirs->begin(), bdirs->end());
  const auto rows = ByName(*t, *dirs);
  ASSERT_EQ(t->rows.size(), 10u);  // 8 pairs, one target-only, one golden-only
  for (auto it = Expected().MemberBegin(); it != Expected().MemberEnd(); ++it) {
    const std::string name = it->name.GetString();
    if (name == "statistic") continue;
    SCOPED_TRACE(name);
    ASSERT_TRUE(rows.count(name));
    const std::vector<Cell> cells = t->Cells(*rows.at(name));
    const rapidjson::Value& e = it->value;
    for (size_t i = 0; i < 4; ++i) {
      ExpectNear(cells[kTargetMax + i], e["npu_stats"][static_cast<rapidjson::SizeType>(i)], 1e-12);
      ExpectNear(cells[kGoldenMax + i], e["bench_stats"][static_cast<rapidjson::SizeType>(i)], 1e-12);
    }
    // Cosine to 12 decimals (6 above 0.9999), the rest as §6.2.
    EXPECT_NEAR(cells[kMetric0].number(), e["cosine"].GetDouble(), e["cosine"].GetDouble() > 0.9999 ? 5e-7 : 1e-12);
    ExpectNear(cells[kMetric0 + 1], e["euc"], 1e-12);
    ExpectNear(cells[kMetric0 + 2], e["max_abs"], 1e-12);
    ExpectNear(cells[kMetric0 + 3], e["max_rel"], 1e-7);
    ExpectNear(cells[kMetric0 + 4], e["one"], 1e-12);
    ExpectNear(cells[kMetric0 + 5], e["five"], 1e-12);
  }
  // The second Add output (timestamp 150) pairs with the golden's second one: Local Index 1.
  const ResultRow& neg_row = *rows.at("Add.Default_Add-op0.0.0.150.output.0.DefaultFormat.float32.npy");
  const std::vector<Cell> neg = t->Cells(neg_row);
  EXPECT_LT(neg[kMetric0].number(), -0.99);
  EXPECT_TRUE(neg[kAccuracy].IsText("No"));
  EXPECT_EQ(neg_row.result, Verdict::kError);
  const std::vector<Cell> reshape = t->Cells(*rows.at("Reshape.Default_Reshape-op5.0.0.500.output.0.DefaultFormat.float32.npy"));
  EXPECT_TRUE(reshape[kErr].IsText("Shape of NPU and bench Tensor do not match.\n"));
  EXPECT_TRUE(reshape[kTargetShape].IsText("[2, 3]"));
  const std::vector<Cell> relu = t->Cells(*rows.at("Relu.Default_Relu-op6.0.0.600.output.0.DefaultFormat.float32.npy"));
  EXPECT_TRUE(relu[kGoldenName].IsText(""));
  EXPECT_TRUE(relu[kErr].IsText("Dump file is not ndarray.\n"));
  EXPECT_EQ(t->rows.back().target_name, "");  // the golden-only Gelu comes last
  EXPECT_TRUE(t->Cells(*rows.at("Sub.Default_Sub-op3.0.0.400.input.0.ND.FLOAT16"))[kTargetDtype].IsText("float16"));
}

TEST(KernelCompareTest, StatisticModeAcrossCsvVariants) {
  Result<ResultTable> t = Compare("kernel/stat_npu", "kernel/stat_bench");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->Header().size(), 26u);
  EXPECT_EQ(t->Header()[kMetric0], "Max diff");
  EXPECT_EQ(t->Header().back(), "Bench CSV File");
  ASSERT_EQ(t->rows.size(), 3u);
  const rapidjson::Value& e = Expected()["statistic"];
  for (size_t row = 0; row < 2; ++row) {
    const ResultRow& r = t->rows[row];
    const std::vector<Cell> cells = t->Cells(r);
    SCOPED_TRACE(r.target_name);
    const rapidjson::Value& want = e[r.target_name.c_str()];
    for (rapidjson::SizeType i = 0; i < 4; ++i) {
      EXPECT_EQ(cells[kMetric0 + i].number(), want["diff"][i].GetDouble());
      EXPECT_TRUE(cells[kMetric0 + 4 + i].IsText(want["rel"][i].GetString())) << cells[kMetric0 + 4 + i].ToPython();
    }
    EXPECT_TRUE(cells[kAccuracy].IsText(want["accuracy"].GetString()));
    EXPECT_TRUE(cells[kTargetShape].IsText("(3,4)") || cells[kTargetShape].IsText("(4)"));
  }
  EXPECT_TRUE(t->Cells(t->rows[2])[kGoldenName].IsText(""));  // Neg: target only
}

TEST(KernelCompareTest, NpyAgainstStatisticIsAnInputError) {
  EXPECT_STATUS(Compare("kernel/npu", "kernel/stat_bench"), Code::kInvalidInput, "the golden dump only statistic.csv");
}

KernelCompareOptions RunOptions(const std::string& target, const std::string& golden, const std::string& out) {
  KernelCompareOptions options;
  options.run.target_path = testing::TestData(target);
  options.run.golden_path = testing::TestData(golden);
  options.run.output_dir = out;
  return options;
}

TEST(KernelCompareTest, RunWritesCsvAndXlsxPerRankStep) {
  testing::TempDir out;
  KernelCompareOptions options = RunOptions("kernel/npu", "kernel/bench", out.Path("result"));
  Result<CompareReport> report = RunKernelCompare(options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->pairs.size(), 1u);
  const std::vector<std::string>& files = report->pairs[0].outputs;
  ASSERT_EQ(files.size(), 2u);
  EXPECT_TRUE(fs::path(files[0]).filename().string().starts_with("compare_result_0_0_"));
  EXPECT_EQ(fs::path(files[0]).extension(), ".csv");
  EXPECT_EQ(fs::path(files[1]).extension(), ".xlsx");
  const std::string csv = testing::ReadFile(files[0]);
  EXPECT_TRUE(csv.starts_with("NPU Name,Bench Name,NPU Dtype,Bench Dtype,NPU Tensor Shape,Bench Tensor Shape,NPU max,"));
  options.steps = {7};
  EXPECT_STATUS(RunKernelCompare(options), Code::kInvalidInput, "no (rank, step)");
}

// Each (rank, step) is a pair of the run: its counts follow the Accuracy column (Yes pass, No error,
// anything else warning), summary.json holds them, and the gates and JUnit see its rows.
TEST(KernelCompareTest, RunReportsCountsSummaryGatesAndJunit) {
  testing::TempDir out;
  KernelCompareOptions options = RunOptions("kernel/npu", "kernel/bench", out.Path("result"));
  options.run.fail_on = Verdict::kError;
  options.run.junit_path = out.Path("junit.xml");
  std::map<std::string, std::pair<uint64_t, uint64_t>> progress;
  const JobContext context{.progress = [&](std::string_view label, uint64_t done, uint64_t total) {
    progress[std::string(label)] = {std::max(progress[std::string(label)].first, done), total};
  }};
  Result<CompareReport> report = RunKernelCompare(options, context);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->pairs.size(), 1u);
  const PairResult& pair = report->pairs[0];
  EXPECT_EQ(pair.label, "rank0_step0");
  EXPECT_EQ(pair.mode, "ALL");

  Result<ResultTable> table = Compare("kernel/npu", "kernel/bench");
  ASSERT_TRUE(table.ok());
  uint64_t yes = 0, no = 0, other = 0;
  for (const ResultRow& r : table->rows) (r.accuracy == Accuracy::kYes ? yes : r.accuracy == Accuracy::kNo ? no : other)++;
  EXPECT_EQ(no, 5u);  // the fixture's five "No" rows
  EXPECT_EQ(pair.rows, table->rows.size());
  EXPECT_EQ(pair.passed, yes);
  EXPECT_EQ(pair.errors, no);
  EXPECT_EQ(pair.warnings, other);
  EXPECT_EQ(progress["rank0_step0"], std::make_pair(pair.rows, pair.rows));

  // The gate names the first "No" row, in the csv.
  const std::optional<GateFailure> gate = EvaluateGates(options.run, *report);
  ASSERT_TRUE(gate.has_value());
  EXPECT_EQ(gate->gate, "--fail-on error");
  EXPECT_TRUE(gate->reason.starts_with(pair.outputs.front() + " row 4: ")) << gate->reason;
  // msprobe's Err_message is empty for a plain "No": the reason names the rule of docs/compare.md §5.2 it
  // failed, with the csv's Cosine (-1.0) and MaxAbsErr (3.867789030075) of that row.
  EXPECT_TRUE(gate->reason.ends_with("Add.Default_Add-op0.0.0.150.output.0.DefaultFormat.float32.npy: error: "
                                     "Cosine -1 < 0.99 and MaxAbsErr 3.867789030075 > 0.001"))
      << gate->reason;
  ASSERT_TRUE(pair.first_error.has_value());
  EXPECT_EQ(pair.first_error->api, "Default_Add-op0.0");

  rapidjson::Document summary;
  summary.Parse(testing::ReadFile(report->summary_file).c_str());
  ASSERT_FALSE(summary.HasParseError());
  EXPECT_EQ(fs::path(report->summary_file).parent_path(), fs::path(out.Path("result")));
  const rapidjson::Value& counts = summary["counts"];
  EXPECT_EQ(counts["rows"].GetUint64(), pair.rows);
  EXPECT_EQ(counts["pass"].GetUint64(), yes);
  EXPECT_EQ(counts["error"].GetUint64(), no);
  EXPECT_EQ(counts["warning"].GetUint64(), other);
  EXPECT_STREQ(summary["pairs"][0]["label"].GetString(), "rank0_step0");
  EXPECT_STREQ(summary["first_error"]["npu_name"].GetString(), pair.first_error->target_name.c_str());
  EXPECT_EQ(summary["first_error"]["row"].GetUint64(), 4u);  // the csv's line, the header being line 1

  const std::string junit = testing::ReadFile(options.run.junit_path);
  EXPECT_NE(junit.find("<testsuite name=\"rank0_step0\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<testcase name=\"Default_Add-op0.0\" classname=\"rank0_step0\">\n      <failure"),
            std::string::npos) << junit;
  EXPECT_NE(junit.find("<testcase name=\"Default_Reshape-op5.0\" classname=\"rank0_step0\"/>"), std::string::npos)
      << junit;  // a warning row does not fail --fail-on error
}

// A tree against itself: every row "Yes", so neither gate fails.
TEST(KernelCompareTest, GatesPassWithoutNoRows) {
  testing::TempDir out;
  KernelCompareOptions options = RunOptions("kernel/npu", "kernel/npu", out.Path("result"));
  options.run.fail_on = Verdict::kError;
  Result<CompareReport> report = RunKernelCompare(options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->pairs[0].passed, report->pairs[0].rows);
  EXPECT_FALSE(EvaluateGates(options.run, *report).has_value());
  options.run.fail_on = Verdict::kWarning;
  EXPECT_FALSE(EvaluateGates(options.run, *report).has_value());
}

// STATISTIC mode: "No" is an error, the target-only row (checks failed, empty Accuracy) a warning.
TEST(KernelCompareTest, StatisticRunGatesOnNo) {
  testing::TempDir out;
  KernelCompareOptions options = RunOptions("kernel/stat_npu", "kernel/stat_bench", out.Path("result"));
  options.run.fail_on = Verdict::kError;
  Result<CompareReport> report = RunKernelCompare(options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  const PairResult& pair = report->pairs[0];
  EXPECT_EQ(pair.mode, "SUMMARY");
  EXPECT_EQ(std::make_tuple(pair.rows, pair.passed, pair.errors, pair.warnings), std::make_tuple(3u, 1u, 1u, 1u));
  const std::optional<GateFailure> gate = EvaluateGates(options.run, *report);
  ASSERT_TRUE(gate.has_value());
  // The "No" row: NPU max 8, Bench max 0 in the fixture's statistic.csv files, so (8 - 0) / (8 + 1e-10),
  // 0.9999999999875 as Python's repr prints it, exceeds 0.5.
  EXPECT_TRUE(gate->reason.ends_with(": Default_Mul-op1.0.output.0: error: "
                                     "(NPU max - Bench max) / max(NPU max, Bench max) = 0.9999999999875 > 0.5"))
      << gate->reason;
  ASSERT_TRUE(pair.first_warning.has_value());
  EXPECT_EQ(pair.first_warning->target_name, "Default_Mul-op1.0.output.0");  // warning or worse
  // The warning row's Err_message as the csv shows it: the messages concatenated, not json.dumps of a list.
  Result<ResultTable> table = Compare("kernel/stat_npu", "kernel/stat_bench");
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(MakeRowRef(*table, 2, "").err_message,
            "Dump file not found.\nTensor shapes do not match.\nDtype of NPU and bench Tensor do not match.\n");
}

TEST(KernelCompareTest, OutputsInsideAnInputAreRefused) {
  testing::TempDir out;
  fs::copy(testing::TestData("kernel/stat_npu"), out.Path("npu"), fs::copy_options::recursive);
  KernelCompareOptions options = RunOptions("kernel/stat_bench", "kernel/stat_bench", out.Path("npu/result"));
  options.run.target_path = out.Path("npu");
  EXPECT_STATUS(RunKernelCompare(options), Code::kInvalidInput, "");
  options.run.output_dir = out.Path("result");
  options.run.junit_path = out.Path("npu/junit.xml");
  EXPECT_STATUS(RunKernelCompare(options), Code::kInvalidInput, "");
}

}  // namespace
}  // namespace msprobe::compare
