// RunRecompute (docs/ops.md §6) on the recompute test dumps (tests/data/recompute): the csv, the
// xlsx with its summary sheet, summary.json, several rank dirs at once, and input errors.
#include "msprobe/compare/recompute/recompute_job.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "msprobe/compare/xlsx/xlsx_reader.h"
#include "msprobe/dump/text/csv_reader.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::TempDir;

std::string RankDir(const std::string& name) { return testing::TestData("recompute/" + name + "/step0/rank0"); }

const char* const kHeader =
    "API Name,Op,Dtype,Output,Supported,MaxAbsErr,MaxRelativeErr,Cosine,AccumulationLength,Tolerance,Verdict,Reason";

Result<RecomputeReport> Recompute(const std::string& input, const std::string& out) {
  RecomputeOptions options;
  options.input = input;
  options.output_dir = out;
  options.tool_version = "test";
  return RunRecompute(options);
}

std::vector<std::vector<std::string>> ReadCsvRows(const std::string& path) {
  const std::string text = ReadFile(path);
  std::vector<std::vector<std::string>> rows;
  const Status st = ReadCsv(AsBytes(text), path, [&](uint64_t, std::span<const std::string_view> fields) {
    rows.emplace_back(fields.begin(), fields.end());
    return Status::Ok();
  });
  EXPECT_TRUE(st.ok()) << st.ToString();
  return rows;
}

std::string FirstLine(const std::string& path) {
  const std::string text = ReadFile(path);
  return text.substr(0, text.find('\n'));
}

nlohmann::json ReadSummary(const std::string& path) { return nlohmann::json::parse(ReadFile(path)); }

std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(RunRecompute, TargetOpCsvAndSummary) {
  TempDir out;
  auto report = Recompute(RankDir("target_op"), out.Path("out"));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->parts.size(), 1u);
  const RecomputePart& part = report->parts[0];
  ASSERT_EQ(part.outputs.size(), 2u);
  const std::string csv = part.outputs[0];
  const std::string csv_name = fs::path(csv).filename().string();
  EXPECT_EQ(csv_name.rfind("recompute_result_", 0), 0u) << csv_name;
  EXPECT_EQ(fs::path(csv).extension(), ".csv");
  EXPECT_EQ(fs::path(part.outputs[1]).extension(), ".xlsx");
  EXPECT_EQ(fs::path(csv).stem(), fs::path(part.outputs[1]).stem());
  // recompute_result_{ts}.csv: one part, no label; the timestamp is 14 digits.
  const std::string ts = fs::path(csv).stem().string().substr(std::string("recompute_result_").size());
  EXPECT_EQ(ts.size(), 14u) << csv_name;
  EXPECT_EQ(ts.find_first_not_of("0123456789"), std::string::npos) << csv_name;

  EXPECT_EQ(FirstLine(csv), kHeader);
  const auto rows = ReadCsvRows(csv);
  ASSERT_EQ(rows.size(), 8u);  // header + 7 calls
  EXPECT_EQ(rows[2][0], "Functional.gelu.0.forward");
  EXPECT_EQ(rows[2][1], "Functional.gelu");
  EXPECT_EQ(rows[2][2], "torch.float32");
  EXPECT_EQ(rows[2][3], "output.0");
  EXPECT_EQ(rows[2][4], "True");
  EXPECT_EQ(rows[2][8], "1");
  EXPECT_EQ(rows[2][10], "exceeds");
  EXPECT_GT(std::strtod(rows[2][6].c_str(), nullptr), 100 * std::strtod(rows[2][9].c_str(), nullptr));
  for (size_t r = 1; r < rows.size(); ++r) {
    ASSERT_EQ(rows[r].size(), 12u) << r;
    if (r != 2) {
      EXPECT_EQ(rows[r][10], "ok") << rows[r][0];
    }
    EXPECT_EQ(rows[r][11], "") << rows[r][0];
  }

  EXPECT_EQ(report->counts.calls, 7u);
  EXPECT_EQ(report->counts.ok, 6u);
  EXPECT_EQ(report->counts.exceeds, 1u);
  ASSERT_TRUE(report->first_exceeding.has_value());
  EXPECT_EQ(report->first_exceeding->api, "Functional.gelu.0.forward");

  EXPECT_EQ(report->summary_file, out.Path("out/summary.json"));
  const nlohmann::json summary = ReadSummary(report->summary_file);
  EXPECT_EQ(summary["tool"], "msprobe-dump recompute");
  EXPECT_EQ(summary["version"], "test");
  EXPECT_EQ(summary["input"], RankDir("target_op"));
  EXPECT_EQ(summary["counts"]["calls"], 7);
  EXPECT_EQ(summary["counts"]["ok"], 6);
  EXPECT_EQ(summary["counts"]["exceeds"], 1);
  EXPECT_EQ(summary["counts"]["unsupported"], 0);
  EXPECT_EQ(summary["counts"]["skipped"], 0);
  EXPECT_EQ(summary["first_exceeding"]["api"], "Functional.gelu.0.forward");
  EXPECT_EQ(summary["first_exceeding"]["dump_json"], RankDir("target_op") + "/dump.json");
  EXPECT_EQ(summary["first_exceeding"]["file"], csv);
  EXPECT_EQ(summary["first_exceeding"]["row"], 1);  // 0-based data row: the csv's second data line
  ASSERT_EQ(summary["parts"].size(), 1u);
  EXPECT_EQ(summary["parts"][0]["outputs"], nlohmann::json(part.outputs));
  EXPECT_EQ(summary["parts"][0]["counts"]["exceeds"], 1);

  // Exactly the two tables and the summary, nothing temporary left behind.
  EXPECT_EQ(Names(out.Path("out")), (std::vector<std::string>{fs::path(csv).filename().string(),
                                                              fs::path(part.outputs[1]).filename().string(),
                                                              "summary.json"}));
}

TEST(RunRecompute, GoldenHasNoFirstExceeding) {
  TempDir out;
  auto report = Recompute(RankDir("golden") + "/dump.json", out.Path("o"));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->counts.ok, 7u);
  EXPECT_FALSE(report->first_exceeding.has_value());
  const nlohmann::json summary = ReadSummary(report->summary_file);
  EXPECT_TRUE(summary.contains("first_exceeding"));
  EXPECT_TRUE(summary["first_exceeding"].is_null());
  EXPECT_EQ(summary["counts"]["exceeds"], 0);
  const auto rows = ReadCsvRows(report->parts[0].outputs[0]);
  ASSERT_EQ(rows.size(), 8u);
  for (size_t r = 1; r < rows.size(); ++r) EXPECT_EQ(rows[r][10], "ok") << rows[r][0];
}

TEST(RunRecompute, StepDirWithTwoRanksGivesTwoLabelledParts) {
  TempDir tmp;
  const fs::path step = tmp.root() / "step0";
  fs::create_directories(step);
  fs::copy(RankDir("golden"), step / "rank0", fs::copy_options::recursive);
  fs::copy(RankDir("golden"), step / "rank1", fs::copy_options::recursive);
  auto report = Recompute(step.string(), tmp.Path("out"));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->parts.size(), 2u);
  const char* labels[] = {"rank0", "rank1"};
  for (size_t i = 0; i < 2; ++i) {
    const RecomputePart& part = report->parts[i];
    EXPECT_EQ(part.dump_json, (step / labels[i] / "dump.json").string());
    for (const std::string& file : part.outputs) {
      const std::string name = fs::path(file).filename().string();
      EXPECT_EQ(name.rfind(std::string("recompute_result_") + labels[i] + "_", 0), 0u) << name;
      EXPECT_TRUE(fs::exists(file)) << file;
    }
    EXPECT_EQ(part.counts.calls, 7u);
  }
  EXPECT_EQ(report->counts.calls, 14u);
  EXPECT_EQ(report->counts.ok, 14u);
  const nlohmann::json summary = ReadSummary(report->summary_file);
  EXPECT_EQ(summary["parts"].size(), 2u);
  EXPECT_EQ(summary["counts"]["calls"], 14);
  EXPECT_TRUE(summary["first_exceeding"].is_null());
  EXPECT_EQ(Names(tmp.Path("out")).size(), 5u);  // 2 × (csv + xlsx) + summary.json
}

TEST(RunRecompute, InputErrors) {
  TempDir tmp;
  auto missing = Recompute(tmp.Path("no_such_dump"), tmp.Path("out"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Code::kNotFound);
  EXPECT_NE(missing.status().ToString().find("no_such_dump"), std::string::npos) << missing.status().ToString();
  EXPECT_FALSE(fs::exists(tmp.Path("out/summary.json")));
  // A directory without any dump.json.
  fs::create_directories(tmp.Path("empty"));
  EXPECT_FALSE(Recompute(tmp.Path("empty"), tmp.Path("out2")).ok());
  // A dump.json that is not JSON.
  fs::create_directories(tmp.Path("bad"));
  testing::WriteFile(tmp.Path("bad/dump.json"), "not json at all");
  EXPECT_FALSE(Recompute(tmp.Path("bad"), tmp.Path("out3")).ok());
  EXPECT_FALSE(fs::exists(tmp.Path("out3/summary.json")));
  // An output "directory" that is a file.
  testing::WriteFile(tmp.Path("file"), "x");
  EXPECT_FALSE(Recompute(RankDir("golden"), tmp.Path("file")).ok());
}

// A writable copy of the golden rank dir at `to`.
void CopyGolden(const fs::path& to) {
  fs::create_directories(to.parent_path());
  fs::copy(RankDir("golden"), to, fs::copy_options::recursive);
  for (const auto& f : fs::recursive_directory_iterator(to)) {
    fs::permissions(f.path(), fs::perms::owner_write, fs::perm_options::add);
  }
}

TEST(RunRecompute, MissingTensorFileIsUnreadableNotUnsupported) {
  TempDir tmp;
  const fs::path rank = tmp.root() / "rank0";
  CopyGolden(rank);
  const std::string gone = (rank / "dump_tensor_data/Functional.gelu.0.forward.output.0.pt").string();
  fs::remove(gone);
  auto report = Recompute(rank.string(), tmp.Path("out"));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->counts.ok, 6u);
  EXPECT_EQ(report->counts.unsupported, 0u);
  EXPECT_EQ(report->counts.unreadable, 1u);
  ASSERT_TRUE(report->first_unreadable.has_value());
  EXPECT_EQ(report->first_unreadable->api, "Functional.gelu.0.forward");
  EXPECT_EQ(report->first_unreadable->row, 1u);
  EXPECT_EQ(report->first_unreadable->reason.rfind(gone + ": ", 0), 0u) << report->first_unreadable->reason;
  const auto rows = ReadCsvRows(report->parts[0].outputs[0]);
  ASSERT_EQ(rows.size(), 8u);
  EXPECT_EQ(rows[2][4], "True");  // gelu has a reference: supported, only not checked
  EXPECT_EQ(rows[2][6], "N/A");
  EXPECT_EQ(rows[2][10], "unreadable");
  EXPECT_EQ(rows[2][11], report->first_unreadable->reason);
  const nlohmann::json summary = ReadSummary(report->summary_file);
  EXPECT_EQ(summary["counts"]["unreadable"], 1);
  EXPECT_EQ(summary["counts"]["unsupported"], 0);
  EXPECT_EQ(summary["parts"][0]["counts"]["unreadable"], 1);
  EXPECT_EQ(summary["first_unreadable"]["api"], "Functional.gelu.0.forward");
  EXPECT_EQ(summary["first_unreadable"]["row"], 1);
  EXPECT_EQ(summary["first_unreadable"]["reason"], report->first_unreadable->reason);
  EXPECT_TRUE(summary["first_exceeding"].is_null());
}

TEST(RunRecompute, NoCallCheckedIsRefusedWithNoTable) {
  TempDir tmp;
  for (const char* rank : {"step0/rank0", "step0/rank1"}) {
    CopyGolden(tmp.root() / rank);
    fs::remove_all(tmp.root() / rank / "dump_tensor_data");
  }
  auto one = Recompute(tmp.Path("step0/rank0"), tmp.Path("out1"));
  EXPECT_STATUS(one, Code::kInvalidInput, "none of its 7 API call(s) could be checked: 0 unsupported, 7 unreadable "
                                          "(first: Functional.linear.0.forward: " + tmp.Path("step0/rank0/"));
  EXPECT_EQ(one.status().source(), tmp.Path("step0/rank0/dump.json"));
  auto both = Recompute(tmp.Path("step0"), tmp.Path("out2"));
  EXPECT_STATUS(both, Code::kInvalidInput, "none of the 2 dumps' 14 API call(s) could be checked: 0 unsupported, "
                                           "14 unreadable");
  EXPECT_EQ(both.status().source(), tmp.Path("step0"));
  for (const char* out : {"out1", "out2"}) EXPECT_TRUE(Names(tmp.Path(out)).empty()) << out;
}

// Sheet1 of the xlsx holds the csv's cells: numbers as numbers (equal to the csv's up to the 16
// significant digits libxlsxwriter writes, docs/compatibility.md "Outputs"), True/False as
// booleans, texts as texts.
TEST(RunRecompute, XlsxSheet1EqualsTheCsv) {
  TempDir out;
  auto report = Recompute(RankDir("target_op"), out.Path("out"));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  const auto csv = ReadCsvRows(report->parts[0].outputs[0]);
  const std::string xlsx_path = report->parts[0].outputs[1];
  const std::string bytes = ReadFile(xlsx_path);
  auto reader = XlsxReader::Open(AsBytes(bytes), xlsx_path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(reader->sheet_names(), (std::vector<std::string>{"Sheet1", "summary"}));
  auto sheet = ReadXlsxSheetRows(AsBytes(bytes), xlsx_path, 0);
  ASSERT_TRUE(sheet.ok()) << sheet.status().ToString();
  ASSERT_EQ(sheet->size(), csv.size());
  for (size_t r = 0; r < csv.size(); ++r) {
    for (size_t c = 0; c < csv[r].size(); ++c) {
      SCOPED_TRACE("row " + std::to_string(r + 1) + " col " + std::to_string(c));
      const XlsxCell cell = c < (*sheet)[r].size() ? (*sheet)[r][c] : XlsxCell{};
      const std::string& text = csv[r][c];
      switch (cell.type) {
        case XlsxCell::Type::kEmpty: EXPECT_EQ(text, ""); break;
        case XlsxCell::Type::kText: EXPECT_EQ(cell.text, text); break;
        case XlsxCell::Type::kNumber: {
          const double v = std::strtod(text.c_str(), nullptr);
          EXPECT_NEAR(cell.number, v, std::fabs(v) * 1e-15) << text;
          break;
        }
        case XlsxCell::Type::kBool: EXPECT_EQ(cell.number != 0 ? "True" : "False", text); break;
        case XlsxCell::Type::kError: ADD_FAILURE() << "error cell " << cell.text; break;
      }
    }
  }
  // The summary sheet: the counts per verdict, then the first exceeding call.
  auto summary = ReadXlsxSheetRows(AsBytes(bytes), xlsx_path, 1);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  ASSERT_GE(summary->size(), 7u);
  auto text_at = [&](size_t r, size_t c) { return c < (*summary)[r].size() ? (*summary)[r][c].text : std::string(); };
  auto number_at = [&](size_t r) { return 1 < (*summary)[r].size() ? (*summary)[r][1].number : -1.0; };
  EXPECT_EQ(text_at(0, 0), "ok");
  EXPECT_EQ(number_at(0), 6);
  EXPECT_EQ(text_at(1, 0), "exceeds");
  EXPECT_EQ(number_at(1), 1);
  EXPECT_EQ(text_at(2, 0), "unsupported");
  EXPECT_EQ(number_at(2), 0);
  EXPECT_EQ(text_at(3, 0), "unreadable");
  EXPECT_EQ(number_at(3), 0);
  EXPECT_EQ(text_at(4, 0), "calls");
  EXPECT_EQ(number_at(4), 7);
  EXPECT_EQ(text_at(6, 0), "first exceeding");
  EXPECT_EQ(text_at(6, 1), "Functional.gelu.0.forward");
}

}  // namespace
}  // namespace msprobe::compare
