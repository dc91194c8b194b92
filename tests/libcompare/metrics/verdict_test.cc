// Expected Results and messages: docs/compare.md §5.1 and Appendix A (verified G3 rows), and msprobe's
// own G3 CSVs in shared/data/msprobe_samples/dist2_da/cmp (statistics mode, rank0 and rank1).
#include "msprobe/compare/metrics/verdict.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "msprobe/dump/text/python_json.h"
#include "msprobe/compare/metrics/stats_diff.h"
#include "msprobe/dump/text/json_file.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

constexpr const char* kScalarMsg = "error: The scalar parameters of NPU and Bench are inconsistent.";
constexpr const char* kShapeMsg = "error: The shape of NPU and Bench are inconsistent.";
constexpr const char* kDtypeMsg = "error: The dtype of NPU and Bench are inconsistent.";
constexpr const char* kNormWarnMsg = "warning: The norm relative error of output is 10 times that of input.";
constexpr const char* kInfNanMsg = "error: There is nan/inf/-inf in the maximum or minimum value of NPU.";
constexpr const char* kOneThousandthMsg =
    "error: The input/parameters of One Thousandth Err Ratio > 0.9 while the output < 0.6.";
constexpr const char* kCosineMsg = "warning: The input/parameters of Cosine > 0.9, and input/parameters - output > 0.1";
constexpr const char* kNormErrMsg = "error: The NormRelativeErr of output is greater than 0.5.";
constexpr const char* kReqGradMsg = "error: The Required_Grad of NPU and Bench are inconsistent";
constexpr const char* kCrcWarnMsg = "warning: The parameter of NPU does not match the bench.";
constexpr const char* kCrcErrMsg = "error: The CRC-32 value of NPU differs from that of the bench.";

using Messages = std::vector<std::string>;

// A matched float32 tensor row of `api`; `suffix` like "input.0" or "output.0".
ResultRow Tensor(const std::string& api, const std::string& suffix) {
  ResultRow r;
  r.api = api;
  r.target_name = r.golden_name = api + "." + suffix;
  r.target_dtype = r.golden_dtype = "torch.float32";
  r.target_shape = r.golden_shape = "[4, 5]";
  r.target_requires_grad = r.golden_requires_grad = "False";
  r.target_stats = r.golden_stats = {Cell::Float(1.0), Cell::Float(0.0), Cell::Float(0.5), Cell::Float(2.0)};
  r.matched = true;
  return r;
}

ResultRow WithTensorMetrics(ResultRow r, double cosine, double one_thousandth) {
  r.metrics = {Cell::Float(cosine), Cell::Float(0.0), Cell::Float(0.0), Cell::Float(0.0),
               Cell::Float(one_thousandth), Cell::Float(1.0)};
  return r;
}

ResultRow WithNormRel(ResultRow r, const std::string& norm_rel) {
  r.metrics.assign(8, Cell::Text("0"));
  r.metrics[kNormRel] = Cell::Text(norm_rel);
  return r;
}

void Unmatch(ResultRow* r) {
  r->golden_name = r->golden_dtype = r->golden_shape = r->golden_requires_grad = "N/A";
  r->golden_stats = {Cell::NA(), Cell::NA(), Cell::NA(), Cell::NA()};
  r->matched = false;
}

TEST(VerdictTest, ScalarArgumentThreeVersusTwoIsAnError) {
  // Appendix A example 2 (tensor mode): a Python int argument 3 vs 2.
  const std::string api = "Torch.add.0.forward";
  ResultRow scalar = Tensor(api, "input.1");
  scalar.target_dtype = scalar.golden_dtype = "<class 'int'>";
  scalar.target_shape = scalar.golden_shape = "[]";
  scalar.target_requires_grad = scalar.golden_requires_grad = "N/A";
  scalar.target_stats = {Cell::Int(3), Cell::Int(3), Cell::Int(3), Cell::Int(3)};
  scalar.golden_stats = {Cell::Int(2), Cell::Int(2), Cell::Int(2), Cell::Int(2)};
  scalar.metrics.assign(6, Cell::Unsupported());
  std::vector<ResultRow> rows = {WithTensorMetrics(Tensor(api, "input.0"), 1.0, 1.0), scalar,
                                 WithTensorMetrics(Tensor(api, "output.0"), 1.0, 1.0)};
  ApplyVerdicts(&rows, CompareMode::kTensor);
  EXPECT_EQ(rows[1].result, Verdict::kError);
  EXPECT_EQ(rows[1].err_messages, Messages{kScalarMsg});
  EXPECT_EQ(JsonDumpsStrings(rows[1].err_messages),
            R"(["error: The scalar parameters of NPU and Bench are inconsistent."])");
  EXPECT_EQ(rows[0].result, Verdict::kPass);
  EXPECT_EQ(rows[2].result, Verdict::kPass);
}

TEST(VerdictTest, EqualScalarsOfIntAndFloatArePythonEqual) {
  ResultRow scalar = Tensor("Torch.add.0.forward", "input.1");
  scalar.target_dtype = scalar.golden_dtype = "<class 'float'>";
  scalar.target_shape = scalar.golden_shape = "[]";
  scalar.target_stats[0] = Cell::Int(1);
  scalar.golden_stats[0] = Cell::Float(1.0);
  std::vector<ResultRow> rows = {scalar};
  ApplyVerdicts(&rows, CompareMode::kSummary);
  EXPECT_EQ(rows[0].result, Verdict::kPass);
}

TEST(VerdictTest, TargetOnlyRowPassesWithNoMessages) {
  // Appendix A example 3: unmatched, metrics unsupported, Requires_grad False vs N/A.
  ResultRow row = Tensor("NPU.npu_rms_norm.0.forward", "input.0");
  Unmatch(&row);
  row.metrics.assign(6, Cell::Unsupported());
  row.result = Verdict::kError;
  row.err_messages = {"No bench data matched."};
  std::vector<ResultRow> rows = {row};
  ApplyVerdicts(&rows, CompareMode::kTensor);
  EXPECT_EQ(rows[0].result, Verdict::kPass);
  EXPECT_EQ(JsonDumpsStrings(rows[0].err_messages), "[]");
}

TEST(VerdictTest, ShapeMismatchIsAnError) {
  // Appendix A example 4.
  ResultRow row = Tensor("Torch.matmul.0.forward", "input.0");
  row.target_shape = "[2, 3]";
  row.golden_shape = "[3, 2]";
  row.metrics.assign(6, Cell::Text("shape unmatched"));
  std::vector<ResultRow> rows = {row};
  ApplyVerdicts(&rows, CompareMode::kTensor);
  EXPECT_EQ(rows[0].result, Verdict::kError);
  EXPECT_EQ(rows[0].err_messages, Messages{kShapeMsg});
}

TEST(VerdictTest, StatisticsOutputTenTimesInputsNormErrorWarns) {
  // Appendix A example 5: inputs' largest NormRelativeErr 0.0036154715255329443%, the '0' strings
  // skipped; output 0-d 3.0 vs 2.0.
  const std::string api = "Torch.matmul.0.forward";
  ResultRow out = Tensor(api, "output.0");
  out.target_shape = out.golden_shape = "[]";
  out.target_stats = {Cell::Float(3.0), Cell::Float(3.0), Cell::Float(3.0), Cell::Float(3.0)};
  out.golden_stats = {Cell::Float(2.0), Cell::Float(2.0), Cell::Float(2.0), Cell::Float(2.0)};
  FillStatsDiff(&out);
  EXPECT_EQ(out.metrics[kMaxDiff].ToPython(), "1.0");
  EXPECT_EQ(out.metrics[kMaxRel].ToPython(), "50.0%");
  std::vector<ResultRow> rows = {WithNormRel(Tensor(api, "input.0"), "0"),
                                 WithNormRel(Tensor(api, "input.1"), "0.0036154715255329443%"), out};
  ApplyVerdicts(&rows, CompareMode::kSummary);
  EXPECT_EQ(rows[2].result, Verdict::kWarning);
  EXPECT_EQ(JsonDumpsStrings(rows[2].err_messages),
            R"(["warning: The norm relative error of output is 10 times that of input."])");
  EXPECT_EQ(rows[0].result, Verdict::kPass);
  EXPECT_EQ(rows[1].result, Verdict::kPass);
}

TEST(VerdictTest, DtypeErrorAndNormWarningAccumulateOnFirstOutput) {
  // Functional.linear.0.forward in dist2_da/cmp/compare_result_rank0_*.csv.
  const std::string api = "Functional.linear.0.forward";
  ResultRow out = WithNormRel(Tensor(api, "output.0"), "0.18633917452739887%");
  out.target_dtype = "torch.bfloat16";
  std::vector<ResultRow> rows = {WithNormRel(Tensor(api, "input.0"), "7.948121670980075e-06%"),
                                 WithNormRel(Tensor(api, "input.1"), "0"), out};
  ApplyVerdicts(&rows, CompareMode::kSummary);
  EXPECT_EQ(rows[2].result, Verdict::kError);
  EXPECT_EQ(JsonDumpsStrings(rows[2].err_messages),
            R"(["error: The dtype of NPU and Bench are inconsistent.", )"
            R"("warning: The norm relative error of output is 10 times that of input."])");
}

TEST(VerdictTest, OneThousandthUsesTheCodesPointOneNotTheMessagesPointSix) {
  const std::string api = "Functional.relu.0.forward";
  for (const auto& [output_ratio, fires] : {std::pair{0.4, false}, std::pair{0.05, true}}) {
    std::vector<ResultRow> rows = {WithTensorMetrics(Tensor(api, "input.0"), 1.0, 1.0),
                                   WithTensorMetrics(Tensor(api, "output.0"), 1.0, output_ratio),
                                   WithTensorMetrics(Tensor(api, "output.1"), 1.0, 1.0)};
    ApplyVerdicts(&rows, CompareMode::kTensor);
    EXPECT_EQ(rows[1].result, fires ? Verdict::kError : Verdict::kPass) << output_ratio;
    EXPECT_EQ(rows[1].err_messages, fires ? Messages{kOneThousandthMsg} : Messages{}) << output_ratio;
    EXPECT_EQ(rows[2].result, Verdict::kPass);
  }
}

TEST(VerdictTest, CosineDropWarnsOnFirstOutputOnly) {
  const std::string api = "Functional.gelu.0.forward";
  std::vector<ResultRow> rows = {WithTensorMetrics(Tensor(api, "input.0"), 0.99, 1.0),
                                 WithTensorMetrics(Tensor(api, "output.0"), 0.95, 1.0),
                                 WithTensorMetrics(Tensor(api, "output.1"), 0.5, 1.0)};
  ApplyVerdicts(&rows, CompareMode::kTensor);
  EXPECT_EQ(rows[1].result, Verdict::kWarning);
  EXPECT_EQ(rows[1].err_messages, Messages{kCosineMsg});
  EXPECT_EQ(rows[2].result, Verdict::kPass);
}

TEST(VerdictTest, InfNanFlagsTargetUnlessGoldenHasItAndFiresOnUnmatchedRows) {
  const std::string api = "Functional.exp.0.forward";
  ResultRow target_inf = WithNormRel(Tensor(api, "input.0"), "N/A");
  target_inf.target_stats[0] = Cell::Float(INFINITY);
  ResultRow both_nan = WithNormRel(Tensor(api, "input.1"), "0");
  both_nan.target_stats[1] = both_nan.golden_stats[1] = Cell::Nan();
  ResultRow unmatched = WithNormRel(Tensor(api, "output.0"), "N/A");
  Unmatch(&unmatched);
  unmatched.target_stats[1] = Cell::Nan();
  std::vector<ResultRow> rows = {target_inf, both_nan, unmatched};
  ApplyVerdicts(&rows, CompareMode::kSummary);
  EXPECT_EQ(rows[0].err_messages, Messages{kInfNanMsg});
  EXPECT_EQ(rows[1].result, Verdict::kPass);
  EXPECT_EQ(rows[2].result, Verdict::kError);
  EXPECT_EQ(rows[2].err_messages, Messages{kInfNanMsg});
}

TEST(VerdictTest, RelativeErrFiresOnInfButNotOnNa) {
  const std::string api = "Functional.mul.0.forward";
  std::vector<ResultRow> rows = {WithNormRel(Tensor(api, "input.0"), "1.0%"),
                                 WithNormRel(Tensor(api, "output.0"), "inf"),
                                 WithNormRel(Tensor(api, "output.1"), "N/A"),
                                 WithNormRel(Tensor(api, "output.2"), "60.0%")};
  ApplyVerdicts(&rows, CompareMode::kSummary);
  // RelativeWarn also fires on the first output: outputs' max 0.6 ('inf' is skipped) > 10 x 0.01.
  EXPECT_EQ(rows[1].err_messages, (Messages{kNormErrMsg, kNormWarnMsg}));
  EXPECT_EQ(rows[2].result, Verdict::kPass);
  EXPECT_EQ(rows[3].err_messages, Messages{kNormErrMsg});
}

TEST(VerdictTest, RequiresGradCountsNaAsAValue) {
  ResultRow row = WithNormRel(Tensor("Functional.mul.0.forward", "input.0"), "0");
  row.golden_requires_grad = "N/A";
  std::vector<ResultRow> rows = {row};
  ApplyVerdicts(&rows, CompareMode::kSummary);
  EXPECT_EQ(rows[0].err_messages, Messages{kReqGradMsg});
}

TEST(VerdictTest, DtypeSkipsFusedWeightsAndFiresAcrossFrameworks) {
  ResultRow fused = WithNormRel(Tensor("Module.attn.Linear.forward.0", "parameters.weight"), "0");
  fused.golden_name = "Module.attn.qkv.Linear.forward.0.parameters.weight";
  fused.target_dtype = "torch.bfloat16";
  ResultRow cross = WithNormRel(Tensor("Functional.mul.0.forward", "input.0"), "0");
  cross.target_dtype = "Float32";
  std::vector<ResultRow> rows = {fused, cross};
  ApplyVerdicts(&rows, CompareMode::kSummary);
  EXPECT_EQ(rows[0].result, Verdict::kPass);
  EXPECT_EQ(rows[1].err_messages, Messages{kDtypeMsg});
}

TEST(VerdictTest, IgnoreSetsSkipAllOrInputChecks) {
  ResultRow to_in = WithNormRel(Tensor("Tensor.to.0.forward", "input.0"), "0");
  to_in.target_dtype = "torch.float16";
  ResultRow to_out = WithNormRel(Tensor("Tensor.to.0.forward", "output.0"), "99.0%");
  to_out.target_dtype = "torch.float16";
  const std::string gather = "Distributed._all_gather_base.0.forward";
  ResultRow g_in = WithNormRel(Tensor(gather, "input.0"), "0");
  g_in.target_dtype = "torch.float16";
  ResultRow g_out = WithNormRel(Tensor(gather, "output.0"), "99.0%");
  g_out.target_dtype = "torch.float16";
  std::vector<ResultRow> rows = {to_in, to_out, g_in, g_out};
  ApplyVerdicts(&rows, CompareMode::kSummary);
  EXPECT_EQ(rows[0].result, Verdict::kPass);
  EXPECT_EQ(rows[1].result, Verdict::kPass);
  EXPECT_EQ(rows[2].result, Verdict::kPass);
  // Per-row checks only; RelativeErr and RelativeWarn are group checks and stay silent.
  EXPECT_EQ(rows[3].err_messages, Messages{kDtypeMsg});
}

TEST(VerdictTest, RowsOfOneApiGroupTogetherEvenWhenApart) {
  const std::string api = "Functional.mul.0.forward";
  std::vector<ResultRow> rows = {WithNormRel(Tensor(api, "input.0"), "0.001%"),
                                 WithNormRel(Tensor("Functional.add.0.forward", "input.0"), "50.0%"),
                                 WithNormRel(Tensor(api, "output.0"), "1.0%")};
  ApplyVerdicts(&rows, CompareMode::kSummary);
  EXPECT_EQ(rows[2].err_messages, Messages{kNormWarnMsg});  // 0.01 / 0.00001 > 10
}

TEST(VerdictTest, Crc32ComparesMd5Cells) {
  const std::string api = "Functional.relu.0.forward";
  ResultRow equal = Tensor(api, "input.0"), differs = Tensor(api, "input.1"), unmatched = Tensor(api, "output.0");
  Unmatch(&unmatched);
  FillMd5(&equal, "1a2b3c4d", "1a2b3c4d");
  FillMd5(&differs, "1a2b3c4d", "00000000");
  FillMd5(&unmatched, "1a2b3c4d", "1a2b3c4d");
  std::vector<ResultRow> rows = {equal, differs, unmatched};
  ApplyVerdicts(&rows, CompareMode::kMd5);
  EXPECT_EQ(rows[0].result, Verdict::kPass);
  EXPECT_EQ(rows[0].err_messages, Messages{});
  EXPECT_EQ(rows[1].result, Verdict::kError);
  EXPECT_EQ(rows[1].err_messages, Messages{kCrcErrMsg});
  EXPECT_EQ(rows[2].result, Verdict::kWarning);
  EXPECT_EQ(rows[2].err_messages, Messages{kCrcWarnMsg});
}

// --- Golden: msprobe's own statistics-mode CSVs ---

// RFC 4180 records: quoted fields may hold commas, newlines and doubled quotes.
std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> records(1);
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      records.back().push_back(std::move(field));
      field.clear();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      records.back().push_back(std::move(field));
      field.clear();
      records.emplace_back();
    } else {
      field += c;
    }
  }
  if (!field.empty() || !records.back().empty()) {
    records.back().push_back(std::move(field));
  } else {
    records.pop_back();
  }
  return records;
}

// A statistic as msprobe's frame held it before writing: a float, an int or a string constant.
Cell StatCell(const std::string& s) {
  for (const char* text : {"None", "Nan", "N/A", "True", "False"}) {
    if (s == text) return Cell::Text(s);
  }
  if (s.find_first_of(".e") != std::string::npos || s.find("inf") != std::string::npos) {
    return Cell::Float(std::strtod(s.c_str(), nullptr));
  }
  return Cell::Int(std::strtoll(s.c_str(), nullptr, 10));
}

// The dump.json key a row came from: the longest key that prefixes its name.
std::string ApiOf(const std::string& name, const std::vector<std::string>& keys) {
  std::string best;
  for (const std::string& k : keys) {
    if (k.size() > best.size() && name.compare(0, k.size() + 1, k + ".") == 0) best = k;
  }
  return best;
}

void CheckGoldenRank(const std::string& cmp_dir, const std::string& rank) {
  std::string csv_path;
  for (const auto& entry : std::filesystem::directory_iterator(cmp_dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("compare_result_" + rank + "_", 0) == 0 && entry.path().extension() == ".csv") {
      csv_path = entry.path().string();
    }
  }
  ASSERT_FALSE(csv_path.empty()) << rank;
  auto dump = ReadJsonFile(cmp_dir + "/../target/step0/" + rank + "/dump.json");
  ASSERT_TRUE(dump.ok()) << dump.status().ToString();
  std::vector<std::string> keys;
  for (const auto& m : (*dump)["data"].GetObject()) keys.emplace_back(m.name.GetString());

  const auto records = ParseCsv(testing::ReadFile(csv_path));
  ASSERT_GT(records.size(), 100u);
  const std::vector<std::string>& header = records[0];
  ASSERT_EQ(header, ResultHeader(CompareMode::kSummary, /*with_stack=*/true));
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) col[header[i]] = i;

  std::vector<ResultRow> rows;
  for (size_t r = 1; r < records.size(); ++r) {
    const auto& rec = records[r];
    ASSERT_EQ(rec.size(), header.size()) << "record " << r;
    ResultRow row;
    row.target_name = rec[col["NPU Name"]];
    row.golden_name = rec[col["Bench Name"]];
    row.target_dtype = rec[col["NPU Dtype"]];
    row.golden_dtype = rec[col["Bench Dtype"]];
    row.target_shape = rec[col["NPU Tensor Shape"]];
    row.golden_shape = rec[col["Bench Tensor Shape"]];
    row.target_requires_grad = rec[col["NPU Requires_grad"]];
    row.golden_requires_grad = rec[col["Bench Requires_grad"]];
    const char* stats[] = {"max", "min", "mean", "l2norm"};
    for (int i = 0; i < 4; ++i) {
      row.target_stats[i] = StatCell(rec[col[std::string("NPU ") + stats[i]]]);
      row.golden_stats[i] = StatCell(rec[col[std::string("Bench ") + stats[i]]]);
    }
    row.matched = row.golden_name != "N/A";
    row.api = ApiOf(row.target_name, keys);
    ASSERT_FALSE(row.api.empty()) << row.target_name;
    // Stale and none of the three (any uint8_t is a value of the enum): ApplyVerdicts must set every row.
    row.result = static_cast<Verdict>(0xFF);
    row.err_messages = {"No bench data matched."};
    FillStatsDiff(&row);
    rows.push_back(std::move(row));
  }
  ApplyVerdicts(&rows, CompareMode::kSummary);

  const int first_diff = static_cast<int>(col["Max diff"]);
  int warnings = 0, errors = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    const auto& rec = records[r + 1];
    for (int i = 0; i < 8; ++i) {
      EXPECT_EQ(rows[r].metrics[i].ToPython(), rec[first_diff + i]) << rank << " " << rows[r].target_name << " "
                                                                    << header[first_diff + i];
    }
    ASSERT_LE(rows[r].result, Verdict::kError) << rank << " " << rows[r].target_name << ": Result left stale";
    EXPECT_EQ(VerdictName(rows[r].result), rec[col["Result"]]) << rank << " " << rows[r].target_name;
    EXPECT_EQ(JsonDumpsStrings(rows[r].err_messages), rec[col["Err_message"]]) << rank << " " << rows[r].target_name;
    warnings += rec[col["Result"]] == "warning";
    errors += rec[col["Result"]] == "error";
  }
  // The sample exercises both levels (dtype errors, norm-relative warnings).
  EXPECT_GT(warnings, 0);
  EXPECT_GT(errors, 0);
}

// --consistent_check, tensor mode: no requires_grad check; shapes compared with their 1s dropped,
// fsdp's fused rollout rows skipped, megatron's [T, 1, d] against [T, d] merged.
TEST(VerdictTest, VerlShapesAreSqueezed) {
  std::vector<ResultRow> rows = {WithTensorMetrics(Tensor("A", "input.0"), 1, 1), WithTensorMetrics(Tensor("A", "output.0"), 1, 1),
                                 WithTensorMetrics(Tensor("B", "output.0"), 1, 1)};
  rows[0].target_shape = "[1, 3, 4]";
  rows[0].golden_shape = "[3, 4]";
  rows[0].target_requires_grad = "True";
  rows[1].target_shape = "[3, 4];[3, 4]";
  rows[1].golden_shape = "[3, 8]";
  rows[1].golden_name = "x.qkv_proj.y";
  rows[2].target_shape = "[3, 2, 4]";
  rows[2].golden_shape = "[3, 8]";
  ApplyVerdicts(&rows, CompareMode::kTensor, ConsistentBackend::kFsdp);
  EXPECT_EQ(rows[0].err_messages, Messages{});
  EXPECT_EQ(rows[1].err_messages, Messages{});
  EXPECT_EQ(rows[2].err_messages, Messages{kShapeMsg});
  ApplyVerdicts(&rows, CompareMode::kTensor, ConsistentBackend::kMegatron);
  EXPECT_EQ(rows[1].err_messages, Messages{kShapeMsg});  // megatron skips no fused row
  EXPECT_EQ(rows[2].err_messages, Messages{});           // [3,2,4] read as [3,8]
}

// msprobe writes the verdicts back group after group onto rows 0, 1, 2...: the rows of a group that
// is not adjacent take their neighbours' verdicts.
TEST(VerdictTest, ConsistentVerdictsAreWrittenInGroupOrder) {
  std::vector<ResultRow> rows = {Tensor("A", "input.0"), Tensor("B", "input.0"), Tensor("A", "input.1")};
  for (ResultRow& r : rows) r.metrics.assign(8, Cell::Text("0"));
  rows[2].golden_shape = "[9]";
  ApplyVerdicts(&rows, CompareMode::kSummary, ConsistentBackend::kFsdp);
  EXPECT_EQ(rows[0].result, Verdict::kPass);
  EXPECT_EQ(rows[1].err_messages, Messages{kShapeMsg});  // A's second row's verdict
  EXPECT_EQ(rows[2].result, Verdict::kPass);             // B's
  ApplyVerdicts(&rows, CompareMode::kSummary);
  EXPECT_EQ(rows[2].err_messages, Messages{kShapeMsg});
}

TEST(VerdictGoldenTest, StatisticsCsvOfMsprobeRank0) {
  MSP_REQUIRE_SHARED(cmp_dir, "msprobe_samples/dist2_da/cmp");
  CheckGoldenRank(cmp_dir, "rank0");
}

TEST(VerdictGoldenTest, StatisticsCsvOfMsprobeRank1) {
  MSP_REQUIRE_SHARED(cmp_dir, "msprobe_samples/dist2_da/cmp");
  CheckGoldenRank(cmp_dir, "rank1");
}

}  // namespace
}  // namespace msprobe::compare
