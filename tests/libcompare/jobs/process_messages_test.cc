// Every message the processes of a distributed compare or merge send each other (docs/distributed.md
// §4) comes back as it went, on the one codec (msprobe/dump/util/coding.h): every field, every kind of
// cell bit for bit (NaN payloads, -0, ±inf, integers past 2^53, texts with NUL), and a message cut short
// anywhere is rejected.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "jobs/pair_messages_internal.h"
#include "jobs/statistics_slice_messages_internal.h"
#include "merge/rank_extract_internal.h"
#include "msprobe/dump/util/coding.h"

namespace msprobe::compare::internal {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const std::string kNul("a\0b", 3);

std::vector<Cell> EveryCell() {
  return {Cell::Text(""),
          Cell::Text(kNul),
          Cell::NA(),
          Cell::Int(0),
          Cell::Int(-3),
          Cell::Int(9007199254740993),  // 2^53 + 1: no double holds it
          Cell::Int(std::numeric_limits<int64_t>::min()),
          Cell::Int(std::numeric_limits<int64_t>::max()),
          Cell::Float(0.1),
          Cell::Float(-0.0),
          Cell::Float(kInf),
          Cell::Float(-kInf),
          Cell::Float(std::numeric_limits<double>::quiet_NaN()),
          Cell::Float(std::bit_cast<double>(uint64_t{0xfff800000000beef})),  // a negative NaN with a payload
          Cell::Float(std::numeric_limits<double>::denorm_min()),
          Cell::Bool(true),
          Cell::Bool(false)};
}

// Same kind and value, a float's every bit (Cell's == takes any NaN for any other).
void ExpectSameCells(const std::vector<Cell>& got, const std::vector<Cell>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].kind(), want[i].kind()) << i;
    EXPECT_EQ(got[i].text(), want[i].text()) << i;
    EXPECT_EQ(got[i].integer(), want[i].integer()) << i;
    EXPECT_EQ(std::bit_cast<uint64_t>(got[i].number()), std::bit_cast<uint64_t>(want[i].number())) << i;
  }
}

PairOutcome SampleOutcome() {
  PairOutcome o;
  PairResult& r = o.result;
  r.target_json = "/npu/rank3/dump.json";
  r.golden_json = "/bench/rank3/dump.json";
  r.label = "rank3";
  r.outputs = {"/out/compare_result_rank3_20261125000000.csv", kNul};
  r.mode = "ALL";
  r.rows = uint64_t{1} << 40;
  r.passed = 4;
  r.warnings = 1;
  r.errors = 2;
  r.skipped_reason = "none";
  r.first_error = RowRef{"/out/a.csv", 4, "Functional.gelu.0.forward.output.0", "Functional.gelu.0.forward",
                         Verdict::kError, "error: cosine"};
  r.worst = {{4, "x", Verdict::kError, 0.25}, {5, "y", Verdict::kWarning, kInf}};
  r.first_cause = FirstCause{"Functional.gelu.0.forward", "input", std::string("…input.1"), 3};
  r.unreadable_tensors = 1;
  r.first_unreadable = "/npu/x.pt: missing";
  r.matched_rows = 7;
  r.golden_rows = uint64_t{1} << 35;
  r.unmatched = UnmatchedRows{3, RowRef{"/out/a.csv", 9, "Functional.extra.0.forward.input.0",
                                        "Functional.extra.0.forward", Verdict::kPass, kNul},
                              5, "Torch.renamed.0.forward.input.0"};
  r.target_level = "L0";
  r.golden_level = "L1";
  r.streamed = true;
  o.junit = JunitSuite{"rank3", "/out/a.csv", 1.5, {{"Functional.gelu.0.forward", {{"n", Verdict::kError, "m"}}}},
                       JunitNotCompared{"2 target row(s) without a golden counterpart", true}};
  DiffOp op{"Distributed.all_reduce.0.forward", true, {}, {}, std::vector<std::string>{"File a.py"}, 9};
  for (const Cell& c : EveryCell()) op.outputs.push_back(DiffIo{"out0", {{"Max diff", c}}});
  op.inputs.push_back(DiffIo{"in0", {}});
  o.rank = RankDiffs{-3, {op}};
  o.diff_rows[9] = DiffRow{RowRef{"", 9, "n9", "api", Verdict::kWarning, ""}, "stack"};
  o.html_part.emplace("rank3", CompareMode::kSummary, "/npu/rank3/construct.json");
  ResultRow row;
  row.target_name = "Functional.gelu.0.forward.output.0";
  row.api = "Functional.gelu.0.forward";
  row.target_dtype = "torch.float32";
  row.metrics = {Cell::Float(0.5), Cell::Text("12.5%"), Cell::NA(), Cell::Int(2), Cell::Float(-0.0), Cell::Text(kNul),
                 Cell::Float(kInf), Cell::Bool(true)};
  o.html_part->AddRow(row);
  row.target_name = "Tensor.add.1.forward.input.0";
  row.golden_name = "N/A";
  row.result = Verdict::kError;
  o.html_part->AddRow(row);
  return o;
}

void ExpectSameOutcome(const PairOutcome& d, const PairOutcome& o) {
  const PairResult &got = d.result, &want = o.result;
  EXPECT_EQ(got.target_json, want.target_json);
  EXPECT_EQ(got.golden_json, want.golden_json);
  EXPECT_EQ(got.label, want.label);
  EXPECT_EQ(got.outputs, want.outputs);
  EXPECT_EQ(got.mode, want.mode);
  EXPECT_EQ(got.rows, want.rows);
  EXPECT_EQ(got.passed, want.passed);
  EXPECT_EQ(got.warnings, want.warnings);
  EXPECT_EQ(got.errors, want.errors);
  EXPECT_EQ(got.skipped_reason, want.skipped_reason);
  ASSERT_TRUE(got.first_error);
  EXPECT_EQ(got.first_error->row, 4u);
  EXPECT_EQ(got.first_error->api, want.first_error->api);
  EXPECT_EQ(got.first_error->result, Verdict::kError);
  EXPECT_EQ(got.first_error->err_message, "error: cosine");
  EXPECT_FALSE(got.first_warning);
  ASSERT_EQ(got.worst.size(), 2u);
  EXPECT_EQ(got.worst[0].target_name, "x");
  EXPECT_EQ(got.worst[0].value, 0.25);
  EXPECT_EQ(got.worst[1].result, Verdict::kWarning);
  EXPECT_EQ(got.worst[1].value, kInf);
  ASSERT_TRUE(got.first_cause);
  EXPECT_EQ(got.first_cause->kind, "input");
  EXPECT_EQ(*got.first_cause->argument, "…input.1");
  EXPECT_EQ(got.first_cause->row, 3u);
  EXPECT_EQ(got.unreadable_tensors, 1u);
  EXPECT_EQ(got.first_unreadable, want.first_unreadable);
  EXPECT_TRUE(got.streamed);
  ASSERT_TRUE(d.junit);
  EXPECT_EQ(d.junit->file, "/out/a.csv");
  EXPECT_EQ(d.junit->seconds, 1.5);
  EXPECT_EQ(d.junit->cases.at(0).failures.at(0).result, Verdict::kError);
  EXPECT_EQ(d.junit->cases.at(0).failures.at(0).err_message, "m");
  ASSERT_TRUE(d.rank);
  EXPECT_EQ(d.rank->rank, -3);
  const DiffOp& op = d.rank->ops.at(0);
  EXPECT_EQ(op.name, o.rank->ops[0].name);
  EXPECT_TRUE(op.is_diff);
  EXPECT_EQ(op.row, 9u);
  EXPECT_EQ(op.stack, o.rank->ops[0].stack);
  EXPECT_EQ(op.inputs.at(0).name, "in0");
  std::vector<Cell> cells;
  for (const DiffIo& io : op.outputs) cells.push_back(io.metrics.at(0).second);
  ExpectSameCells(cells, EveryCell());
  EXPECT_EQ(d.diff_rows.at(9).ref.target_name, "n9");
  EXPECT_EQ(d.diff_rows.at(9).stack, "stack");
  ASSERT_TRUE(d.html_part);
  const ReportPart &part = *d.html_part, &sent = *o.html_part;
  EXPECT_EQ(part.label(), "rank3");
  EXPECT_EQ(part.kind(), sent.kind());
  EXPECT_EQ(part.main_metric_label(), sent.main_metric_label());
  EXPECT_EQ(part.construct_json(), sent.construct_json());
  EXPECT_EQ(part.strings().strings(), sent.strings().strings());
  EXPECT_EQ(part.apis(), sent.apis());
  EXPECT_EQ(part.api_of_row(), sent.api_of_row());
  EXPECT_EQ(part.tails(), sent.tails());
  EXPECT_EQ(part.whole_names(), sent.whole_names());
  EXPECT_EQ(part.golden_names(), sent.golden_names());
  EXPECT_EQ(part.dtypes(), sent.dtypes());
  EXPECT_EQ(part.shapes(), sent.shapes());
  EXPECT_EQ(part.err_messages(), sent.err_messages());
  EXPECT_EQ(part.verdicts(), sent.verdicts());
  ASSERT_EQ(part.main_metric().size(), 2u);
  ASSERT_EQ(part.metrics().size(), sent.metrics().size());
  for (size_t m = 0; m < part.metrics().size(); ++m) {
    EXPECT_EQ(part.metrics()[m].name, sent.metrics()[m].name);
    EXPECT_EQ(part.metrics()[m].percent, sent.metrics()[m].percent);
    EXPECT_EQ(part.metrics()[m].texts, sent.metrics()[m].texts);
    ASSERT_EQ(part.metrics()[m].values.size(), 2u);
    for (size_t v = 0; v < 2; ++v) {
      EXPECT_EQ(std::bit_cast<uint64_t>(part.metrics()[m].values[v]), std::bit_cast<uint64_t>(sent.metrics()[m].values[v]));
    }
  }
}

MetricSlice SampleMetricSlice() {
  MetricSlice s;
  s.begin = 10;
  s.metrics = {EveryCell(), {}, {Cell::Unsupported()}};
  s.unreadable = {Status::Ok(), Status::Ok(), Status::NotFound("/t.pt", "missing")};
  return s;
}

StatisticsSlice SampleStatisticsSlice() {
  StatisticsSlice s;
  s.target_header = DumpJsonHeader{"statistics", "L1", "mindspore", true};
  s.golden_header = DumpJsonHeader{"statistics", "", "pytorch", false};
  s.mode = CompareMode::kMd5;
  s.md5_unseen = true;
  s.target.entries = {{"Functional.linear.0.forward", 31, 2048},
                      {std::string("k\0\xff\"", 4), uint64_t{1} << 40, (uint64_t{1} << 40) + 7}};
  s.target.orders = {{0, 0}, {-7, 123456}};
  s.golden.entries = {{"Functional.linear.1.backward", 4096, 5000}};
  s.golden.orders = {{2, 1}};
  return s;
}

SliceTable SampleSliceTable() {
  SliceTable t;
  t.table.mode = CompareMode::kSummary;
  t.table.with_stack = true;
  t.table.rows.resize(2);
  ResultRow& r = t.table.rows[0];
  r.target_name = "Functional.linear.0.forward.input.0";
  r.golden_name = kNul;
  r.target_dtype = "torch.float32";
  r.golden_dtype = "torch.float16";
  r.target_shape = "[2, 3]";
  r.golden_shape = "[3, 2]";
  r.target_requires_grad = "True";
  r.golden_requires_grad = "N/A";
  r.metrics = EveryCell();
  r.target_stats = {Cell::Float(1.5), Cell::Text("None"), Cell::Int(3), Cell::Bool(false)};
  r.golden_stats = {Cell::Float(-kInf), Cell::Float(-0.0), Cell::Int(-9007199254740993), Cell::Text(kNul)};
  r.requires_grad_consistent = true;
  r.result = Verdict::kWarning;
  r.accuracy = Accuracy::kUnmatched;
  r.err_messages = {"warning: a\n", kNul};
  r.stack_info = "['File \"a.py\", line 1']";
  r.target_data_name = "x.pt";
  r.golden_data_name = "y.pt";
  r.api = "Functional.linear.0.forward";
  r.state = RowState::kParametersGrad;
  r.matched = true;
  r.attribution = std::numeric_limits<int32_t>::min();
  t.table.rows[1].attribution = 41;
  t.p2p = {P2pColumns{"isend", "irecv", "1", kNul}, P2pColumns{}};
  return t;
}

// A run writing the files rows are made ready for elsewhere, and a JUnit report.
const CompareOptions& EveryOutput() {
  static const CompareOptions options = [] {
    CompareOptions o;
    o.write_csv = o.write_json = true;
    o.write_xlsx = false;
    o.junit_path = "/r/junit.xml";
    return o;
  }();
  return options;
}

PairOutputsPart SamplePart() {
  PairOutputsPart part(EveryOutput());
  SliceTable t = SampleSliceTable();
  t.table.rows[1].result = Verdict::kError;
  t.table.rows[1].api = "Functional.linear.1.forward";
  part.Add(t.table);
  t.table.rows[0].matched = false;  // a target row without a counterpart
  t.table.rows[1].matched = false;  // and a golden row without one
  t.table.rows[1].golden_only = true;
  part.Add(t.table);
  return part;
}

RankExtract SampleExtract() {
  RankExtract e;
  e.input = {uint64_t{1} << 35, "/r/compare_result_rank3_20261125000000.xlsx"};
  e.warnings = {"rank 3: no MaxAbsErr", kNul};
  e.usable = true;
  e.indexes = {"Cosine", "MaxAbsErr"};
  e.data = std::make_unique<RankData>();
  e.names = {"Functional.gelu.0.forward.output.0", e.data->replaced.emplace_back(kNul)};
  MergeValue text{MergeValue::Kind::kText, 0, 0, "N/A"};
  MergeValue nan{MergeValue::Kind::kFloat, std::bit_cast<double>(uint64_t{0x7ff8000000000001}), 0, {}};
  MergeValue integer{MergeValue::Kind::kInt, 0, std::numeric_limits<int64_t>::min(), {}};
  MergeValue boolean{MergeValue::Kind::kBool, 0, 1, {}};
  e.values = {{text, nan}, {integer, boolean}, {MergeValue{}, MergeValue{MergeValue::Kind::kFloat, -0.0, 0, {}}}};
  return e;
}

TEST(ProcessMessages, EveryMessageComesBackAsItWent) {
  const PairOutcome o = SampleOutcome();
  ExpectSameOutcome(DecodeOutcome(EncodeOutcome(o)), o);

  const PairEntry entry = DecodeEntry(EncodeEntry({uint64_t{1} << 33, Status::IOError("/a", "disk"), kNul}));
  EXPECT_EQ(entry.pair, uint64_t{1} << 33);
  EXPECT_EQ(entry.status.code(), Code::kIOError);
  EXPECT_EQ(entry.status.ToString(), "/a: disk");
  EXPECT_EQ(entry.payload, kNul);

  const MetricSlice s = SampleMetricSlice();
  const MetricSlice ds = DecodeSlice(EncodeSlice(s));
  EXPECT_EQ(ds.begin, 10u);
  ASSERT_EQ(ds.metrics.size(), 3u);
  for (size_t i = 0; i < 3; ++i) ExpectSameCells(ds.metrics[i], s.metrics[i]);
  ASSERT_EQ(ds.unreadable.size(), 3u);
  EXPECT_TRUE(ds.unreadable[0].ok());
  EXPECT_TRUE(ds.unreadable[1].ok());
  EXPECT_EQ(ds.unreadable[2].code(), Code::kNotFound);
  EXPECT_EQ(ds.unreadable[2].ToString(), "/t.pt: missing");

  const std::vector<XlsxMark> marks = DecodeMarks(EncodeMarks({{2, 7, "n", kNul}, {0, 0, "", ""}}));
  ASSERT_EQ(marks.size(), 2u);
  EXPECT_EQ(marks[0].pair, 2u);
  EXPECT_EQ(marks[0].row, 7u);
  EXPECT_EQ(marks[0].target_name, "n");
  EXPECT_EQ(marks[0].stack, kNul);

  const StatisticsSlice st = DecodeStatisticsSlice(EncodeStatisticsSlice(SampleStatisticsSlice()));
  EXPECT_EQ(st.target_header.task, "statistics");
  EXPECT_EQ(st.target_header.level, "L1");
  EXPECT_EQ(st.target_header.framework, "mindspore");
  EXPECT_TRUE(st.target_header.has_data);
  EXPECT_FALSE(st.golden_header.has_data);
  EXPECT_EQ(st.mode, CompareMode::kMd5);
  EXPECT_TRUE(st.md5_unseen);
  ASSERT_EQ(st.target.entries.size(), 2u);
  EXPECT_EQ(st.target.entries[1].key, std::string("k\0\xff\"", 4));
  EXPECT_EQ(st.target.entries[1].begin, uint64_t{1} << 40);
  EXPECT_EQ(st.target.entries[1].end, (uint64_t{1} << 40) + 7);
  EXPECT_EQ(st.target.orders[1].forward, -7);
  EXPECT_EQ(st.target.orders[1].backward, 123456);
  EXPECT_EQ(st.golden.entries[0].key, "Functional.linear.1.backward");
  EXPECT_EQ(st.golden.orders[0].forward, 2);

  const SliceRead read =
      DecodeSliceRead(EncodeSliceRead(SliceRead{uint64_t{1} << 33, true, 3, "Torch.matmul.0.forward.input.0", 77}));
  EXPECT_EQ(read.golden_rows, uint64_t{1} << 33);
  EXPECT_TRUE(read.md5);
  EXPECT_EQ(read.unmatched_golden, 3u);
  EXPECT_EQ(read.first_unmatched, "Torch.matmul.0.forward.input.0");
  EXPECT_EQ(read.first_unmatched_at, 77u);

  const SliceTable t = SampleSliceTable();
  const SliceTable dt = DecodeSliceTable(EncodeSliceTable(t));
  EXPECT_EQ(dt.table.mode, CompareMode::kSummary);
  EXPECT_TRUE(dt.table.with_stack);
  ASSERT_EQ(dt.table.rows.size(), 2u);
  const ResultRow &e = dt.table.rows[0], &r = t.table.rows[0];
  for (auto field : {&ResultRow::target_name, &ResultRow::golden_name, &ResultRow::target_dtype,
                     &ResultRow::golden_dtype, &ResultRow::target_shape, &ResultRow::golden_shape,
                     &ResultRow::target_requires_grad, &ResultRow::golden_requires_grad, &ResultRow::stack_info,
                     &ResultRow::target_data_name, &ResultRow::golden_data_name, &ResultRow::api}) {
    EXPECT_EQ(e.*field, r.*field);
  }
  ExpectSameCells(e.metrics, r.metrics);
  ExpectSameCells({e.target_stats.begin(), e.target_stats.end()}, {r.target_stats.begin(), r.target_stats.end()});
  ExpectSameCells({e.golden_stats.begin(), e.golden_stats.end()}, {r.golden_stats.begin(), r.golden_stats.end()});
  EXPECT_TRUE(e.requires_grad_consistent);
  EXPECT_EQ(e.result, Verdict::kWarning);
  EXPECT_EQ(e.accuracy, Accuracy::kUnmatched);
  EXPECT_EQ(e.err_messages, r.err_messages);
  EXPECT_EQ(e.state, RowState::kParametersGrad);
  EXPECT_TRUE(e.matched);
  EXPECT_EQ(e.attribution, std::numeric_limits<int32_t>::min());
  EXPECT_EQ(dt.table.rows[1].attribution, 41);
  EXPECT_EQ(dt.table.rows[1].target_data_name, "-1");
  ASSERT_EQ(dt.p2p.size(), 2u);
  EXPECT_EQ(dt.p2p[0].target_op, "isend");
  EXPECT_EQ(dt.p2p[0].golden_op, "irecv");
  EXPECT_EQ(dt.p2p[0].target_peer, "1");
  EXPECT_EQ(dt.p2p[0].golden_peer, kNul);
  EXPECT_EQ(dt.p2p[1].golden_peer, "None");

  const RankExtract x = SampleExtract();
  const RankExtract dx = DecodeExtract(EncodeExtract(x));
  EXPECT_EQ(dx.input.rank, x.input.rank);
  EXPECT_EQ(dx.input.path, x.input.path);
  EXPECT_EQ(dx.warnings, x.warnings);
  EXPECT_TRUE(dx.usable);
  EXPECT_EQ(dx.indexes, x.indexes);
  EXPECT_EQ(dx.names, x.names);
  ASSERT_EQ(dx.values.size(), 3u);
  for (size_t c = 0; c < 3; ++c) {
    ASSERT_EQ(dx.values[c].size(), 2u);
    for (size_t v = 0; v < 2; ++v) {
      const MergeValue &got = dx.values[c][v], &want = x.values[c][v];
      EXPECT_EQ(got.kind, want.kind);
      EXPECT_EQ(got.text, want.text);
      EXPECT_EQ(got.integer, want.integer);
      EXPECT_EQ(std::bit_cast<uint64_t>(got.number), std::bit_cast<uint64_t>(want.number));
    }
  }
}

// Each message, encoded, and its decoder with the message encoded again.
std::vector<std::pair<std::string, std::function<std::string(std::string_view)>>> EveryMessage() {
  return {
      {EncodeOutcome(SampleOutcome()), [](std::string_view b) { return EncodeOutcome(DecodeOutcome(b)); }},
      {EncodeEntry({3, Status::NotFound("/a", "gone"), kNul}),
       [](std::string_view b) { return EncodeEntry(DecodeEntry(b)); }},
      {EncodeSlice(SampleMetricSlice()), [](std::string_view b) { return EncodeSlice(DecodeSlice(b)); }},
      {EncodeMarks({{2, 7, "n", kNul}}), [](std::string_view b) { return EncodeMarks(DecodeMarks(b)); }},
      {EncodeStatisticsSlice(SampleStatisticsSlice()),
       [](std::string_view b) { return EncodeStatisticsSlice(DecodeStatisticsSlice(b)); }},
      {EncodeSliceRead({5, true, 1, kNul, 9}), [](std::string_view b) { return EncodeSliceRead(DecodeSliceRead(b)); }},
      {EncodeSliceTable(SampleSliceTable()), [](std::string_view b) { return EncodeSliceTable(DecodeSliceTable(b)); }},
      {EncodeSlicePart(SamplePart()),
       [](std::string_view b) {
         PairOutputsPart part(EveryOutput());
         DecodeSlicePart(b, &part);
         return EncodeSlicePart(part);
       }},
      {EncodeExtract(SampleExtract()), [](std::string_view b) { return EncodeExtract(DecodeExtract(b)); }},
      {EncodeStatus(Status::Unsupported("/s", kNul)), [](std::string_view b) { return EncodeStatus(DecodeStatus(b)); }},
      {PackStrings({"", kNul}), [](std::string_view b) { return PackStrings(UnpackStrings(b)); }},
  };
}

TEST(ProcessMessages, EveryMessageEncodesAgainToItsBytes) {
  for (const auto& [bytes, again] : EveryMessage()) EXPECT_EQ(again(bytes), bytes);
}

// A message cut short anywhere, or with a byte more, is a bug of ours: it throws, reading nothing
// past its end (the sanitizers check that).
TEST(ProcessMessages, AMessageCutShortIsRejected) {
  for (const auto& [bytes, again] : EveryMessage()) {
    for (size_t n = 0; n < bytes.size(); ++n) {
      const std::string cut = bytes.substr(0, n);  // its own allocation: ASan sees a read past it
      EXPECT_THROW(again(cut), std::logic_error) << n << " of " << bytes.size();
    }
    EXPECT_THROW(again(bytes + '\0'), std::logic_error);
  }
}

// A rank's ops cross as the first-diff analysis needs them: it finds the same nodes, and the ops it
// ignores or only counts cost next to nothing.
TEST(ProcessMessages, RankOpsKeepWhatTheFirstDiffAnalysisReads) {
  const auto op = [](std::string name, bool diff, size_t row) {
    DiffOp o;
    o.name = std::move(name);
    o.is_diff = diff;
    o.row = row;
    return o;
  };
  std::vector<RankDiffs> ranks(2);
  for (int r = 0; r < 2; ++r) {
    ranks[r].rank = r;
    size_t row = 0;
    for (int i = 0; i < 300; ++i) {
      ranks[r].ops.push_back(op("Functional.linear." + std::to_string(i) + ".forward", r == 1 && i == 150, row++));
      if (i % 10 == 9) ranks[r].ops.push_back(op("Torch.empty." + std::to_string(i) + ".forward", false, row++));
      if (i % 50 == 49) {
        ranks[r].ops.push_back(op("Distributed.all_reduce." + std::to_string(i / 50) + ".forward", false, row++));
      }
    }
  }
  const FirstDiff before = FindFirstDiff(ranks);
  ASSERT_FALSE(before.nodes.empty());
  std::vector<RankDiffs> crossed;
  size_t bytes = 0;
  for (const RankDiffs& r : ranks) {
    PairOutcome o;
    o.rank = r;
    const std::string encoded = EncodeOutcome(o);
    bytes += encoded.size();
    crossed.push_back(*DecodeOutcome(encoded).rank);
  }
  EXPECT_LT(bytes, 2000u);  // 6 communication ops and 1 differing op whole, a byte for each op counted
  const FirstDiff after = FindFirstDiff(crossed);
  EXPECT_EQ(after.stage, before.stage);
  ASSERT_EQ(after.nodes.size(), before.nodes.size());
  for (size_t n = 0; n < after.nodes.size(); ++n) {
    const DiffOp& want = ranks[before.nodes[n].rank_pos].ops[before.nodes[n].op];
    const DiffOp& got = crossed[after.nodes[n].rank_pos].ops[after.nodes[n].op];
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.row, want.row);
  }
}

}  // namespace
}  // namespace msprobe::compare::internal
