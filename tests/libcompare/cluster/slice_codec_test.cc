// A statistics pair's slices and their finished rows cross between processes and come back as they
// went (cluster/slice_codec.cc): every field, every kind of cell, strings with any bytes.
#include "cluster/slice_codec_internal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace msprobe::compare::internal {
namespace {

TEST(SliceCodec, ASliceRoundTrips) {
  StatisticsSlice s;
  s.target_header = DumpJsonHeader{"statistics", "L1", "mindspore", true};
  s.golden_header = DumpJsonHeader{"statistics", "", "pytorch", true};
  s.mode = CompareMode::kMd5;
  s.md5_unseen = true;
  s.target.entries = {{"Functional.linear.0.forward", 31, 2048}, {std::string("k\0\xff\"", 4), uint64_t{1} << 40, (uint64_t{1} << 40) + 7}};
  s.target.orders = {{0, 0}, {7, 123456}};
  s.golden.entries = {{"Functional.linear.1.backward", 4096, 5000}};
  s.golden.orders = {{2, 1}};
  const StatisticsSlice d = DecodeStatisticsSlice(EncodeStatisticsSlice(s));
  EXPECT_EQ(d.target_header.framework, "mindspore");
  EXPECT_EQ(d.target_header.level, "L1");
  EXPECT_TRUE(d.golden_header.has_data);
  EXPECT_EQ(d.mode, CompareMode::kMd5);
  EXPECT_TRUE(d.md5_unseen);
  const SliceRead read = DecodeSliceRead(EncodeSliceRead(SliceRead{uint64_t{1} << 33, true}));
  EXPECT_EQ(read.golden_rows, uint64_t{1} << 33);
  EXPECT_TRUE(read.md5);
  ASSERT_EQ(d.target.entries.size(), 2u);
  EXPECT_EQ(d.target.entries[1].key, std::string("k\0\xff\"", 4));
  EXPECT_EQ(d.target.entries[1].begin, uint64_t{1} << 40);
  EXPECT_EQ(d.target.entries[1].end, (uint64_t{1} << 40) + 7);
  EXPECT_EQ(d.target.orders[1].backward, 123456);
  EXPECT_EQ(d.golden.entries[0].key, "Functional.linear.1.backward");
  EXPECT_EQ(d.golden.orders[0].forward, 2);
}

TEST(SliceCodec, ATablesRowsRoundTrip) {
  SliceTable t;
  t.table.mode = CompareMode::kSummary;
  t.table.with_stack = true;
  t.table.rows.resize(2);
  ResultRow& r = t.table.rows[0];
  r.npu_name = "Functional.linear.0.forward.input.0";
  r.bench_name = "N/A";
  r.npu_dtype = "torch.float32";
  r.npu_shape = "[2, 3]";
  r.npu_requires_grad = "True";
  r.metrics = {Cell::Float(-0.0), Cell::Float(std::numeric_limits<double>::infinity()), Cell::Float(std::nan("")),
               Cell::Int(-9007199254740993), Cell::Bool(true), Cell::Text("N/A"), Cell::Text(""), Cell::Int(0)};
  r.npu_stats = {Cell::Float(1.5), Cell::Text("None"), Cell::Int(3), Cell::Bool(false)};
  r.requires_grad_consistent = true;
  r.result = Verdict::kWarning;
  r.err_messages = {"warning: a\n", "b"};
  r.stack_info = "['File \"a.py\", line 1']";
  r.api = "Functional.linear.0.forward";
  r.state = RowState::kOutput;
  r.matched = true;
  r.attribution = -1;
  t.table.rows[1].attribution = 41;
  t.p2p = {P2pColumns{"isend", "None", "1", "None"}, P2pColumns{}};

  const SliceTable d = DecodeSliceTable(EncodeSliceTable(t));
  EXPECT_EQ(d.table.mode, CompareMode::kSummary);
  EXPECT_TRUE(d.table.with_stack);
  ASSERT_EQ(d.table.rows.size(), 2u);
  const ResultRow& e = d.table.rows[0];
  EXPECT_EQ(e.npu_name, r.npu_name);
  EXPECT_EQ(e.bench_name, "N/A");
  EXPECT_EQ(e.npu_shape, "[2, 3]");
  ASSERT_EQ(e.metrics.size(), 8u);
  EXPECT_TRUE(std::signbit(e.metrics[0].number()));
  EXPECT_TRUE(std::isinf(e.metrics[1].number()));
  EXPECT_TRUE(std::isnan(e.metrics[2].number()));
  EXPECT_EQ(e.metrics[3].kind(), Cell::Kind::kInt);
  EXPECT_EQ(e.metrics[3].integer(), -9007199254740993);
  EXPECT_EQ(e.metrics[4].kind(), Cell::Kind::kBool);
  EXPECT_EQ(e.metrics[5].text(), "N/A");
  EXPECT_EQ(e.npu_stats[1].text(), "None");
  EXPECT_EQ(e.npu_stats[3].kind(), Cell::Kind::kBool);
  EXPECT_TRUE(e.requires_grad_consistent);
  EXPECT_EQ(e.result, Verdict::kWarning);
  EXPECT_EQ(e.err_messages, r.err_messages);
  EXPECT_EQ(e.stack_info, r.stack_info);
  EXPECT_EQ(e.api, r.api);
  EXPECT_EQ(e.state, RowState::kOutput);
  EXPECT_TRUE(e.matched);
  EXPECT_EQ(e.attribution, -1);
  EXPECT_EQ(d.table.rows[1].attribution, 41);
  EXPECT_EQ(d.table.rows[1].npu_data_name, "-1");
  ASSERT_EQ(d.p2p.size(), 2u);
  EXPECT_EQ(d.p2p[0].npu_op, "isend");
  EXPECT_EQ(d.p2p[0].npu_peer, "1");
  EXPECT_EQ(d.p2p[1].bench_peer, "None");
  // A message cut short is a bug of ours: it throws.
  const std::string bytes = EncodeSliceTable(t);
  EXPECT_THROW(DecodeSliceTable(bytes.substr(0, bytes.size() / 2)), std::runtime_error);
}

}  // namespace
}  // namespace msprobe::compare::internal
