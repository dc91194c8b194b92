#include "msprobe/compare/merge/merge_job.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "msprobe/compare/output/csv_writer.h"
#include "msprobe/compare/merge/merge_writer.h"
#include "msprobe/compare/table/result_row.h"
#include "msprobe/compare/xlsx/xlsx_reader.h"
#include "msprobe/compare/output/xlsx_writer.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;
using msprobe::testing::ReadFile;
using msprobe::testing::TempDir;
using msprobe::testing::WriteFile;
using Type = XlsxCell::Type;
using Sheet = std::pair<std::string, std::vector<std::vector<XlsxCell>>>;

constexpr const char* kTs = "20260101000000";
constexpr const char* kConfig = "api:\n- Distributed.all_reduce\n- Functional.linear\ncompare_index:\n- Max diff\n"
                                "- MeanRelativeErr\n";

struct Row {
  std::string name, max_diff, mean_rel = "0", target_max = "1.5", golden_max = "1.5";
};

// One CSV line; fields holding a comma are quoted (already quoted ones are left alone).
std::string Join(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    const bool quote = fields[i].find(',') != std::string::npos && !fields[i].starts_with('"');
    line += (i ? "," : "") + (quote ? "\"" + fields[i] + "\"" : fields[i]);
  }
  return line + "\n";
}

// The cell at `col`, empty when the row ends before it.
XlsxCell At(const std::vector<XlsxCell>& row, size_t col) { return col < row.size() ? row[col] : XlsxCell{}; }

// A G3 statistics-mode CSV (docs/compare.md §4.1 header) holding `rows`.
std::string SummaryCsv(const std::vector<Row>& rows) {
  std::string csv = Join(ResultHeader(CompareMode::kSummary, false));
  for (const Row& r : rows) {
    csv += Join({r.name, r.name, "torch.float32", "torch.float32", "\"[2, 2]\"", "\"[2, 2]\"", "False", "False",
                 r.max_diff, "0", "0", "0", "0", "0", r.mean_rel, "0", r.target_max, "0", "0", "0", r.golden_max, "0",
                 "0", "0", "True", "pass", "[]"});
  }
  return csv;
}

std::string ResultName(int rank, const char* ext = "csv") {
  return fmt::format("compare_result_rank{}_{}.{}", rank, kTs, ext);
}

struct MergeRun {
  Result<MergeReport> report = Status::Internal("", "not run");
  std::vector<std::string> warnings;  // "source: message"
  bool Warned(const std::string& needle) const {
    return std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) { return w.find(needle) != std::string::npos; });
  }
};

MergeRun Merge(const std::string& in, const std::string& out, const std::string& config_path) {
  MergeRun run;
  const JobContext context{.warn = [&](const std::string& s, const std::string& m) {
    run.warnings.push_back(s + ": " + m);
  }};
  run.report = RunMerge({in, out, config_path}, context);
  return run;
}

std::vector<Sheet> ReadWorkbook(const std::string& path) {
  const std::string bytes = ReadFile(path);
  auto reader = XlsxReader::Open(AsBytes(bytes), path);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  std::vector<Sheet> sheets;
  if (!reader.ok()) return sheets;
  for (size_t i = 0; i < reader->sheet_names().size(); ++i) {
    auto rows = ReadXlsxSheetRows(AsBytes(bytes), path, i);
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    sheets.emplace_back(reader->sheet_names()[i], rows.ok() ? *rows : std::vector<std::vector<XlsxCell>>{});
  }
  return sheets;
}

// Cells equal in type and value; an empty text and an absent cell are both empty.
void ExpectSameWorkbook(const std::vector<Sheet>& ours, const std::vector<Sheet>& theirs) {
  ASSERT_EQ(ours.size(), theirs.size());
  for (size_t s = 0; s < ours.size(); ++s) {
    EXPECT_EQ(ours[s].first, theirs[s].first);
    ASSERT_EQ(ours[s].second.size(), theirs[s].second.size()) << ours[s].first;
    for (size_t r = 0; r < ours[s].second.size(); ++r) {
      const auto& a = ours[s].second[r];
      const auto& b = theirs[s].second[r];
      for (size_t c = 0; c < std::max(a.size(), b.size()); ++c) {
        const XlsxCell empty;
        const XlsxCell& x = c < a.size() ? a[c] : empty;
        const XlsxCell& y = c < b.size() ? b[c] : empty;
        const bool x_empty = x.type == Type::kEmpty || (x.type == Type::kText && x.text.empty());
        const bool y_empty = y.type == Type::kEmpty || (y.type == Type::kText && y.text.empty());
        const std::string where = fmt::format("sheet {} row {} col {}", ours[s].first, r + 1, c);
        if (x_empty || y_empty) {
          EXPECT_EQ(x_empty, y_empty) << where;
          continue;
        }
        EXPECT_EQ(x.type, y.type) << where << ": " << x.text << " vs " << y.text;
        EXPECT_EQ(x.text, y.text) << where;
        EXPECT_EQ(x.number, y.number) << where;
      }
    }
  }
}

std::string OnlyXlsx(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".xlsx") return e.path().string();
  }
  return {};
}

// --- msprobe's own outputs (docs/formats.md §5.6 worked example) -------------------------------------

void ExpectMatchesMsprobe(const std::string& sample, const std::string& config, const std::string& merged_dir) {
  TempDir out;
  MergeRun run = Merge(sample, out.Path("m"), config);
  ASSERT_TRUE(run.report.ok()) << run.report.status().ToString();
  ExpectSameWorkbook(ReadWorkbook(run.report->output_path), ReadWorkbook(OnlyXlsx(merged_dir)));
}

TEST(MergeJob, MatchesMsprobeStatisticsSample) {
  MSP_REQUIRE_SHARED(dist2, "msprobe_samples/dist2");
  ExpectMatchesMsprobe(dist2 + "/cmp_stat", dist2 + "/merge_config.yaml", dist2 + "/merge_stat");
}

TEST(MergeJob, MatchesMsprobeTensorSample) {
  MSP_REQUIRE_SHARED(dist2, "msprobe_samples/dist2");
  ExpectMatchesMsprobe(dist2 + "/cmp_t", dist2 + "/merge_config_all.yaml", dist2 + "/merge_t");
}

TEST(MergeJob, StatisticsSampleRowsComeInFirstAppearanceOrder) {
  MSP_REQUIRE_SHARED(dist2, "msprobe_samples/dist2");
  TempDir out;
  MergeRun run = Merge(dist2 + "/cmp_stat", out.Path("m"), dist2 + "/merge_config.yaml");
  ASSERT_TRUE(run.report.ok());
  const auto sheets = ReadWorkbook(run.report->output_path);
  ASSERT_EQ(sheets.size(), 3u);
  // docs/formats.md §5.6: the all_reduce rows precede the all_gather rows (sorting would swap them).
  const auto& rows = sheets[0].second;
  EXPECT_EQ(rows[1][0].text, "Distributed.all_reduce.0.forward.input.0");
  EXPECT_EQ(rows[1][1].text, "0.008423686027526855");
  EXPECT_EQ(rows[1][2].text, "0.01456749439239502");
  EXPECT_EQ(rows[4][1].text, "Diff");
  EXPECT_EQ(rows[9][0].text, "Distributed.all_gather.0.forward.input.0");
}

// --- §5.2 discovery and §5.7 errors ------------------------------------------------------------

class MergeDir : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(in());
    WriteFile(config(), kConfig);
  }
  std::string in() const { return dir_.Path("in"); }
  std::string out() const { return dir_.Path("out"); }
  std::string config() const { return dir_.Path("merge.yaml"); }
  void Put(const std::string& name, const std::string& text) const { WriteFile(in() + "/" + name, text); }
  TempDir dir_;
};

const std::vector<Row> kTwoRows = {{"Distributed.all_reduce.0.forward.input.0", "0.5"},
                                   {"Functional.linear.0.forward.output.0", "0.25"}};

TEST_F(MergeDir, WrongXlsxNameAborts) {
  Put(ResultName(0), SummaryCsv(kTwoRows));
  Put(ResultName(1), SummaryCsv(kTwoRows));
  Put("compare_result_rank0-rank1_20260101000000.xlsx", "x");
  MergeRun run = Merge(in(), out(), config());
  EXPECT_STATUS(run.report, Code::kInvalidInput,
                "Wrong compare result name: compare_result_rank0-rank1_20260101000000.xlsx, please check!");
}

TEST_F(MergeDir, SingleRankNameIsSkippedWithAWarning) {
  Put(ResultName(0), SummaryCsv(kTwoRows));
  Put(ResultName(1), SummaryCsv(kTwoRows));
  Put("compare_result_rank_20260101000000.xlsx", "x");
  MergeRun run = Merge(in(), out(), config());
  ASSERT_TRUE(run.report.ok()) << run.report.status().ToString();
  EXPECT_TRUE(run.Warned("Single rank compare result do not need to be merged."));
}

TEST_F(MergeDir, FewerThanTwoResultsAbort) {
  Put(ResultName(0), SummaryCsv(kTwoRows));
  Put("notes.csv", "a,b\n");
  EXPECT_STATUS(Merge(in(), out(), config()).report, Code::kInvalidInput,
                "Number of compare result is no more than 1, no need to merge.");
}

TEST_F(MergeDir, MissingInputDirectoryAborts) {
  EXPECT_STATUS(Merge(dir_.Path("absent"), out(), config()).report, Code::kNotFound, "no such directory");
}

TEST_F(MergeDir, TwoResultsForOneRankAreRefused) {
  Put(ResultName(0), SummaryCsv(kTwoRows));
  Put("compare_result_rank0_20260101000001.csv", SummaryCsv(kTwoRows));
  Put(ResultName(1), SummaryCsv(kTwoRows));
  EXPECT_STATUS(Merge(in(), out(), config()).report, Code::kInvalidInput, "rank0 has two compare results");
}

TEST_F(MergeDir, ConfigErrorsAbort) {
  Put(ResultName(0), SummaryCsv(kTwoRows));
  Put(ResultName(1), SummaryCsv(kTwoRows));
  WriteFile(config(), "compare_index: [Max diff]\n");
  EXPECT_STATUS(Merge(in(), out(), config()).report, Code::kInvalidInput,
                "The APIs required to merge data were not found.");
}

TEST_F(MergeDir, Md5ResultIsDroppedAlone) {
  std::vector<std::string> md5_header = ResultHeader(CompareMode::kMd5, false);
  Put(ResultName(0), SummaryCsv(kTwoRows));
  Put(ResultName(1), Join(md5_header) + Join(std::vector<std::string>(md5_header.size(), "x")));
  Put(ResultName(2), SummaryCsv(kTwoRows));
  MergeRun run = Merge(in(), out(), config());
  ASSERT_TRUE(run.report.ok()) << run.report.status().ToString();
  EXPECT_EQ(run.report->ranks, (std::vector<uint64_t>{0, 2}));
  EXPECT_TRUE(run.Warned("Rank1 compare result is 'md5' dump task and does not support merging result, please "
                         "check! The compare result will not be shown in merged result."));
}

TEST_F(MergeDir, BadFilesAreDroppedAloneWithAWarningNamingThem) {
  Put(ResultName(0), SummaryCsv(kTwoRows));
  Put(ResultName(1), "NPU Name,Something\nx,y\n");
  Put(ResultName(2, "xlsx"), "PK\x03\x04 this is no workbook");
  Put(ResultName(3), SummaryCsv(kTwoRows));
  MergeRun run = Merge(in(), out(), config());
  ASSERT_TRUE(run.report.ok()) << run.report.status().ToString();
  EXPECT_EQ(run.report->ranks, (std::vector<uint64_t>{0, 3}));
  EXPECT_TRUE(run.Warned(ResultName(1) + ": A valid dump task can not be identified from rank1 compare result, "
                         "please check! The compare result will not be shown in merged result."));
  EXPECT_TRUE(run.Warned(ResultName(2, "xlsx") + ": cannot be read ("));
}

TEST_F(MergeDir, EveryResultDroppedIsNothingToMerge) {
  Put(ResultName(0), "a,b\n1,2\n");
  Put(ResultName(1), "a,b\n1,2\n");
  EXPECT_STATUS(Merge(in(), out(), config()).report, Code::kInvalidInput, "Nothing to merge.");
}

TEST_F(MergeDir, EmptyResultIsSkipped) {
  Put(ResultName(0), SummaryCsv(kTwoRows));
  Put(ResultName(1), SummaryCsv({}));
  Put(ResultName(2), SummaryCsv(kTwoRows));
  MergeRun run = Merge(in(), out(), config());
  ASSERT_TRUE(run.report.ok());
  EXPECT_EQ(run.report->ranks, (std::vector<uint64_t>{0, 2}));
  EXPECT_TRUE(run.Warned("Rank1 compare result is empty and will not shown in merged result."));
}

TEST_F(MergeDir, InconsistentModesDropTheLaterRank) {
  WriteFile(config(), "api: [Distributed.all_reduce]\n");  // every index of the first result's mode
  Put(ResultName(0), SummaryCsv(kTwoRows));
  std::string tensor = Join(ResultHeader(CompareMode::kTensor, false));
  std::vector<std::string> fields(ResultHeader(CompareMode::kTensor, false).size(), "1");
  fields[0] = "Distributed.all_reduce.0.forward.input.0";
  Put(ResultName(1), tensor + Join(fields));
  Put(ResultName(2), SummaryCsv(kTwoRows));
  MergeRun run = Merge(in(), out(), config());
  ASSERT_TRUE(run.report.ok()) << run.report.status().ToString();
  EXPECT_EQ(run.report->ranks, (std::vector<uint64_t>{0, 2}));
  EXPECT_EQ(run.report->sheets.size(), 9u);  // SUMMARY's full list
  EXPECT_TRUE(run.Warned("Compare indexes in rank1 compare result are not consistent with those in other compare "
                         "results, please check!"));
  EXPECT_TRUE(run.Warned("The invalid compare indexes: {'Max diff', "));
}

// --- §5.5 algorithm ---------------------------------------------------------------------------

TEST_F(MergeDir, OuterJoinKeepsFirstAppearanceOrderAndBlanks) {
  Put(ResultName(0), SummaryCsv({{"Functional.linear.1.forward.input.0", "0.1"},
                                 {"Distributed.all_reduce.0.forward.input.0", "0.2"}}));
  Put(ResultName(1), SummaryCsv({{"Functional.linear.2.forward.input.0", "0.3"},
                                 {"Distributed.all_reduce.0.forward.input.0", "0.4"},
                                 {"Distributed.all_reduce_coalesced.0.forward.input.0", "9"}}));
  MergeRun run = Merge(in(), out(), config());
  ASSERT_TRUE(run.report.ok());
  const auto sheets = ReadWorkbook(run.report->output_path);
  ASSERT_EQ(sheets.size(), 2u);
  EXPECT_EQ(sheets[0].first, "Max diff");
  EXPECT_EQ(sheets[1].first, "MeanRelativeErr");
  const auto& rows = sheets[0].second;
  ASSERT_EQ(rows.size(), 4u);  // all_reduce_coalesced does not match "Distributed.all_reduce."
  EXPECT_EQ(rows[0][0].text, "NPU Name");
  EXPECT_EQ(rows[0][1].text, "rank0");
  EXPECT_EQ(rows[0][2].text, "rank1");
  // Per rank: api order first (all_reduce before linear), then the ranks in order.
  EXPECT_EQ(rows[1][0].text, "Distributed.all_reduce.0.forward.input.0");
  EXPECT_EQ(rows[2][0].text, "Functional.linear.1.forward.input.0");
  EXPECT_EQ(rows[3][0].text, "Functional.linear.2.forward.input.0");
  // Each rank's column is all numeric strings, so pandas makes numbers of it.
  EXPECT_EQ(rows[1][1].type, Type::kNumber);
  EXPECT_EQ(rows[1][1].number, 0.2);
  EXPECT_EQ(rows[1][2].number, 0.4);
  EXPECT_EQ(At(rows[2], 2).type, Type::kEmpty);  // rank1 has no linear.1
  EXPECT_EQ(At(rows[3], 1).type, Type::kEmpty);  // rank0 has no linear.2
}

TEST_F(MergeDir, NotApplicableValuesShowTargetAndGoldenMax) {
  Put(ResultName(0), SummaryCsv({{"Distributed.all_reduce.0.forward.input.group", "N/A", "Nan", "[0, 1]", "[0, 1]"},
                                 {"Distributed.all_reduce.0.forward.input.op", "Diff", "unsupported", "2.5", "None"},
                                 {"Distributed.all_reduce.0.forward.input.x", "", "N/A", "", ""}}));
  Put(ResultName(1), SummaryCsv(kTwoRows));
  MergeRun run = Merge(in(), out(), config());
  ASSERT_TRUE(run.report.ok());
  const auto sheets = ReadWorkbook(run.report->output_path);
  const auto& max_diff = sheets[0].second;
  const auto& mean_rel = sheets[1].second;
  EXPECT_EQ(max_diff[1][1].text, "NPU:[0, 1]  Bench:[0, 1]");
  EXPECT_EQ(mean_rel[1][1].text, "NPU:[0, 1]  Bench:[0, 1]");
  EXPECT_EQ(max_diff[2][1].text, "Diff");
  EXPECT_EQ(mean_rel[2][1].text, "NPU:2.5  Bench:None");  // a float in an object column: repr
  EXPECT_EQ(At(max_diff[3], 1).type, Type::kEmpty);        // "" is not replaced
  EXPECT_EQ(mean_rel[3][1].text, "NPU:  Bench:");
}

TEST_F(MergeDir, FormulaLikeValuesAreWrittenAsText) {
  Put(ResultName(0), SummaryCsv({{"Distributed.all_reduce.0.forward.input.0", "=HYPERLINK(\"x\")", "+1+1"},
                                 {"Functional.linear.0.forward.input.0", "-0.5", "@SUM(A1)"}}));
  Put(ResultName(1), SummaryCsv(kTwoRows));
  MergeRun run = Merge(in(), out(), config());
  ASSERT_TRUE(run.report.ok()) << run.report.status().ToString();
  const auto sheets = ReadWorkbook(run.report->output_path);
  EXPECT_EQ(sheets[0].second[1][1].type, Type::kText);
  EXPECT_EQ(sheets[0].second[1][1].text, "=HYPERLINK(\"x\")");
  EXPECT_EQ(sheets[0].second[2][1].text, "-0.5");
  EXPECT_EQ(sheets[1].second[1][1].text, "+1+1");
  EXPECT_EQ(sheets[1].second[2][1].text, "@SUM(A1)");
}

TEST_F(MergeDir, ApiNotFoundWarnsPerRank) {
  Put(ResultName(0), SummaryCsv(kTwoRows));
  Put(ResultName(1), SummaryCsv({{"Distributed.all_reduce.0.forward.input.0", "0.5"}}));
  MergeRun run = Merge(in(), out(), config());
  ASSERT_TRUE(run.report.ok());
  EXPECT_TRUE(run.Warned("Functional.linear not found in rank1 compare result."));
  EXPECT_FALSE(run.Warned("not found in rank0"));
}

TEST_F(MergeDir, SixtyFourRanksMergeInRankOrder) {
  for (int rank = 63; rank >= 0; --rank) {  // written out of order; the 10 sorts after 9
    std::vector<Row> rows;
    for (int i = 0; i < 5; ++i) {
      rows.push_back({fmt::format("Distributed.all_reduce.{}.forward.input.0", i), fmt::format("{}.{}", rank, i)});
    }
    if (rank == 40) rows.push_back({"Functional.linear.0.forward.input.0", "7"});
    Put(ResultName(rank), SummaryCsv(rows));
  }
  MergeRun run = Merge(in(), out(), config());
  ASSERT_TRUE(run.report.ok()) << run.report.status().ToString();
  ASSERT_EQ(run.report->ranks.size(), 64u);
  const auto sheets = ReadWorkbook(run.report->output_path);
  const auto& rows = sheets[0].second;
  ASSERT_EQ(rows.size(), 7u);
  ASSERT_EQ(rows[0].size(), 65u);
  for (int rank = 0; rank < 64; ++rank) {
    EXPECT_EQ(rows[0][rank + 1].text, "rank" + std::to_string(rank));
    EXPECT_EQ(rows[3][rank + 1].number, std::stod(fmt::format("{}.2", rank)));
  }
  EXPECT_EQ(rows[6][0].text, "Functional.linear.0.forward.input.0");
  EXPECT_EQ(rows[6][41].number, 7);
  EXPECT_EQ(At(rows[6], 1).type, Type::kEmpty);
}

TEST_F(MergeDir, OurCsvAndXlsxOfOneResultMergeAlike) {
  ResultTable table;
  table.mode = CompareMode::kTensor;
  for (int i = 0; i < 3; ++i) {
    ResultRow row;
    row.target_name = fmt::format("Distributed.all_reduce.{}.forward.input.0", i);
    row.metrics = {Cell::Float(0.5 + i), i == 1 ? Cell::NA() : Cell::Float(1e-7), Cell::Int(i), Cell::Float(2),
                   Cell::Float(0.125), Cell::Float(1)};
    row.target_stats = {i == 1 ? Cell::Text("[0, 1]") : Cell::Float(3.5), Cell::Int(1), Cell::Int(1), Cell::Int(1)};
    row.golden_stats = {Cell::Float(3.0), Cell::Int(1), Cell::Int(1), Cell::Int(1)};
    row.requires_grad_consistent = i != 2;
    table.rows.push_back(row);
  }
  WriteFile(config(), "api: [Distributed.all_reduce]\n");
  const std::string csv_dir = dir_.Path("csv"), xlsx_dir = dir_.Path("xlsx");
  fs::create_directories(csv_dir);
  fs::create_directories(xlsx_dir);
  for (int rank = 0; rank < 2; ++rank) {
    ASSERT_TRUE(WriteCsv(csv_dir + "/" + ResultName(rank), table).ok());
    ASSERT_TRUE(WriteXlsx(xlsx_dir + "/" + ResultName(rank, "xlsx"), table).ok());
  }
  MergeRun from_csv = Merge(csv_dir, dir_.Path("out_csv"), config());
  MergeRun from_xlsx = Merge(xlsx_dir, dir_.Path("out_xlsx"), config());
  ASSERT_TRUE(from_csv.report.ok()) << from_csv.report.status().ToString();
  ASSERT_TRUE(from_xlsx.report.ok()) << from_xlsx.report.status().ToString();
  const auto sheets = ReadWorkbook(from_xlsx.report->output_path);
  ExpectSameWorkbook(ReadWorkbook(from_csv.report->output_path), sheets);
  ASSERT_EQ(sheets.size(), 7u);
  EXPECT_EQ(sheets[1].second[2][1].text, "NPU:[0, 1]  Bench:3");  // 3.0 read back as pandas' int
  EXPECT_EQ(sheets[6].second[3][1].type, Type::kBool);
}

TEST_F(MergeDir, CsvAndXlsxWithOneStemReadTheXlsx) {
  Put(ResultName(0), SummaryCsv(kTwoRows));
  Put(ResultName(0, "xlsx"), "not a workbook");
  Put(ResultName(1), SummaryCsv(kTwoRows));
  MergeRun run = Merge(in(), out(), config());
  ASSERT_TRUE(run.report.ok());
  EXPECT_TRUE(run.Warned(ResultName(0, "xlsx") + ": cannot be read"));
  EXPECT_TRUE(run.Warned("Only one compare result gets merge data."));
}

// --- writer -------------------------------------------------------------------------------------

TEST(MergeWriter, OutlierRuleComparesMagnitudesWithTheMedian) {
  EXPECT_TRUE(IsMergeOutlier(11, 1, 10));
  EXPECT_FALSE(IsMergeOutlier(10, 1, 10));
  EXPECT_TRUE(IsMergeOutlier(0.09, 1, 10));
  EXPECT_FALSE(IsMergeOutlier(0.1, 1, 10));
  EXPECT_TRUE(IsMergeOutlier(1e-9, 0, 10));  // any non-zero value against a zero median
  EXPECT_FALSE(IsMergeOutlier(0, 0, 10));
}

TEST(MergeWriter, LongSheetsSplitIntoEqualParts) {
  MergeTable table({"Max diff", "Five Thousandths Err Ratio"});
  std::vector<std::string> names;
  std::vector<std::vector<Cell>> values(2);
  for (int i = 0; i < 7; ++i) {
    names.push_back("n" + std::to_string(i));
    values[0].push_back(Cell::Int(i));
    values[1].push_back(Cell::Text("t"));
  }
  table.AddRank(0, names, values);
  TempDir dir;
  ASSERT_TRUE(WriteMergeWorkbook(dir.Path("m.xlsx"), table, 10, 3).ok());
  const auto sheets = ReadWorkbook(dir.Path("m.xlsx"));
  ASSERT_EQ(sheets.size(), 6u);
  EXPECT_EQ(sheets[0].first, "Max diff_part_0");
  EXPECT_EQ(sheets[2].first, "Max diff_part_2");
  EXPECT_EQ(sheets[3].first, "Five Thousandths Err Rat_part_0");  // cut to Excel's 31 characters
  EXPECT_EQ(sheets[0].second.size(), 4u);  // header + 3
  EXPECT_EQ(sheets[2].second.size(), 2u);  // header + 1
  EXPECT_EQ(sheets[2].second[1][0].text, "n6");
}

}  // namespace
}  // namespace msprobe::compare
