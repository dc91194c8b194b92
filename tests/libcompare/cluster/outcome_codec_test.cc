// What crosses between the processes of a distributed run comes back as it went (docs/distributed.md §4).
#include "cluster/outcome_codec_internal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace msprobe::compare::internal {
namespace {

TEST(OutcomeCodec, APairsResultRoundTrips) {
  PairOutcome o;
  PairResult& r = o.result;
  r.target_json = "/npu/rank3/dump.json";
  r.label = "rank3";
  r.outputs = {"/out/compare_result_rank3_20261125000000.csv"};
  r.mode = "ALL";
  r.rows = 7;
  r.errors = 2;
  r.first_error = RowRef{"/out/a.csv", 4, "Functional.gelu.0.forward.output.0", "Functional.gelu.0.forward",
                         Verdict::kError, "error: cosine"};
  r.worst = {{4, "x", Verdict::kError, 0.25}, {5, "y", Verdict::kWarning, std::numeric_limits<double>::infinity()}};
  r.first_cause = FirstCause{"Functional.gelu.0.forward", "input", std::string("…input.1"), 3};
  r.unreadable_tensors = 1;
  r.first_unreadable = "/npu/x.pt: missing";
  r.streamed = true;
  o.junit = JunitSuite{"rank3", "/out/a.csv", 1.5, {{"Functional.gelu.0.forward", {{"n", Verdict::kError, "m"}}}}};
  DiffOp op{"Distributed.all_reduce.0.forward", true, {}, {}, std::vector<std::string>{"File a.py"}, 9};
  op.outputs.push_back(DiffIo{"out0", {{"Max diff", Cell::Float(std::nan(""))}, {"Result", Cell::Text("error")},
                                       {"n", Cell::Int(-3)}, {"b", Cell::Bool(true)}}});
  o.rank = RankDiffs{3, {op}};
  o.diff_rows[9] = DiffRow{RowRef{"", 9, "n9", "api", Verdict::kWarning, ""}, "stack"};

  const PairOutcome d = DecodeOutcome(EncodeOutcome(o));
  EXPECT_EQ(d.result.label, "rank3");
  EXPECT_EQ(d.result.outputs, r.outputs);
  EXPECT_EQ(d.result.rows, 7u);
  EXPECT_EQ(d.result.errors, 2u);
  ASSERT_TRUE(d.result.first_error);
  EXPECT_EQ(d.result.first_error->row, 4u);
  EXPECT_EQ(d.result.first_error->result, Verdict::kError);
  EXPECT_FALSE(d.result.first_warning);
  ASSERT_EQ(d.result.worst.size(), 2u);
  EXPECT_EQ(d.result.worst[0].value, 0.25);
  EXPECT_TRUE(std::isinf(d.result.worst[1].value));
  ASSERT_TRUE(d.result.first_cause);
  EXPECT_EQ(*d.result.first_cause->argument, "…input.1");
  EXPECT_EQ(d.result.unreadable_tensors, 1u);
  EXPECT_TRUE(d.result.streamed);
  ASSERT_TRUE(d.junit);
  EXPECT_EQ(d.junit->seconds, 1.5);
  EXPECT_EQ(d.junit->cases.at(0).failures.at(0).result, Verdict::kError);
  ASSERT_TRUE(d.rank);
  const DiffIo& io = d.rank->ops.at(0).outputs.at(0);
  EXPECT_TRUE(std::isnan(io.metrics[0].second.number()));
  EXPECT_EQ(io.metrics[0].second.kind(), Cell::Kind::kFloat);
  EXPECT_TRUE(io.metrics[1].second.IsText("error"));
  EXPECT_EQ(io.metrics[2].second.integer(), -3);
  EXPECT_EQ(io.metrics[3].second.kind(), Cell::Kind::kBool);
  EXPECT_EQ(d.rank->ops[0].stack, op.stack);
  EXPECT_EQ(d.diff_rows.at(9).stack, "stack");
  EXPECT_FALSE(d.html_part);
}

// A rank's ops cross as the first-diff analysis needs them: it finds the same nodes, and the ops it
// ignores or only counts cost next to nothing.
TEST(OutcomeCodec, RankOpsKeepWhatTheFirstDiffAnalysisReads) {
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
  EXPECT_LT(bytes, 2000u);  // 6 communication ops and 1 differing op, not 660 ops
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

TEST(OutcomeCodec, StatusKeepsItsCodeSourceAndMessage) {
  for (const Status& s : {Status::Ok(), Status::InvalidInput("/a.json", "bad"), Status::NotFound("/b", "gone"),
                          Status::IOError("/c", "disk"), Status::Unsupported("/d", "no"), Status::Internal("", "oom")}) {
    const Status d = DecodeStatus(EncodeStatus(s));
    EXPECT_EQ(d.code(), s.code());
    EXPECT_EQ(d.ToString(), s.ToString());
  }
}

TEST(OutcomeCodec, ByteStringsWithNulsRoundTrip) {
  const std::vector<std::string> strings = {"", std::string("a\0b", 3), std::string(1 << 16, '\xff')};
  EXPECT_EQ(UnpackStrings(PackStrings(strings)), strings);
}

TEST(OutcomeCodec, ASliceKeepsItsRowsMetricsAndUnreadableFiles) {
  MetricSlice s;
  s.begin = 10;
  s.metrics = {{Cell::Float(1.0), Cell::Text("N/A")}, {Cell::Unsupported()}};
  s.unreadable = {Status::Ok(), Status::NotFound("/t.pt", "missing")};
  const MetricSlice d = DecodeSlice(EncodeSlice(s));
  EXPECT_EQ(d.begin, 10u);
  EXPECT_EQ(d.metrics, s.metrics);
  ASSERT_EQ(d.unreadable.size(), 2u);
  EXPECT_TRUE(d.unreadable[0].ok());
  EXPECT_EQ(d.unreadable[1].ToString(), "/t.pt: missing");
}

}  // namespace
}  // namespace msprobe::compare::internal
