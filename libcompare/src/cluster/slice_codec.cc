#include "cluster/slice_codec_internal.h"

#include <cstdint>
#include <stdexcept>
#include <utility>

#include "cluster/byte_codec_internal.h"

namespace msprobe::compare::internal {
namespace {

void Put(ByteWriter& w, const Cell& c) {
  w.U(static_cast<uint8_t>(c.kind()));
  switch (c.kind()) {
    case Cell::Kind::kText: w.S(c.text()); break;
    case Cell::Kind::kFloat: w.F(c.number()); break;
    case Cell::Kind::kInt:
    case Cell::Kind::kBool: w.I(c.integer()); break;
  }
}
void Get(ByteReader& r, Cell* c) {
  switch (static_cast<Cell::Kind>(r.U())) {
    case Cell::Kind::kText: *c = Cell::Text(r.S()); return;
    case Cell::Kind::kFloat: *c = Cell::Float(r.F()); return;
    case Cell::Kind::kInt: *c = Cell::Int(r.I()); return;
    case Cell::Kind::kBool: *c = Cell::Bool(r.I() != 0); return;
  }
  throw std::runtime_error("cluster message: a cell of no kind");
}

void Put(ByteWriter& w, const DumpJsonHeader& h) {
  w.S(h.task);
  w.S(h.level);
  w.S(h.framework);
  w.U(h.has_data);
}
void Get(ByteReader& r, DumpJsonHeader* h) {
  h->task = r.S();
  h->level = r.S();
  h->framework = r.S();
  h->has_data = r.U() != 0;
}

void Put(ByteWriter& w, const EntrySlice& s) {
  w.U(s.entries.size());
  for (size_t i = 0; i < s.entries.size(); ++i) {
    w.S(s.entries[i].key);
    w.U(s.entries[i].begin);
    w.U(s.entries[i].end);
    w.I(s.orders[i].forward);
    w.I(s.orders[i].backward);
  }
}
void Get(ByteReader& r, EntrySlice* s) {
  const uint64_t n = r.U();
  for (uint64_t i = 0; i < n; ++i) {
    JsonMemberSpan& span = s->entries.emplace_back();
    span.key = r.S();
    span.begin = r.U();
    span.end = r.U();
    CallOrder& order = s->orders.emplace_back();
    order.forward = static_cast<int>(r.I());
    order.backward = static_cast<int>(r.I());
  }
}

void Put(ByteWriter& w, const ResultRow& row) {
  for (const std::string* s : {&row.npu_name, &row.bench_name, &row.npu_dtype, &row.bench_dtype, &row.npu_shape,
                               &row.bench_shape, &row.npu_requires_grad, &row.bench_requires_grad}) {
    w.S(*s);
  }
  w.U(row.metrics.size());
  for (const Cell& c : row.metrics) Put(w, c);
  for (const Cell& c : row.npu_stats) Put(w, c);
  for (const Cell& c : row.bench_stats) Put(w, c);
  w.U(row.requires_grad_consistent);
  w.U(static_cast<uint64_t>(row.result));
  w.U(static_cast<uint64_t>(row.accuracy));
  w.U(row.err_messages.size());
  for (const std::string& m : row.err_messages) w.S(m);
  for (const std::string* s : {&row.stack_info, &row.npu_data_name, &row.bench_data_name, &row.api}) w.S(*s);
  w.U(static_cast<uint64_t>(row.state));
  w.U(row.matched);
  w.I(row.attribution);
}
void Get(ByteReader& r, ResultRow* row) {
  for (std::string* s : {&row->npu_name, &row->bench_name, &row->npu_dtype, &row->bench_dtype, &row->npu_shape,
                         &row->bench_shape, &row->npu_requires_grad, &row->bench_requires_grad}) {
    *s = r.S();
  }
  row->metrics.resize(r.U());
  for (Cell& c : row->metrics) Get(r, &c);
  for (Cell& c : row->npu_stats) Get(r, &c);
  for (Cell& c : row->bench_stats) Get(r, &c);
  row->requires_grad_consistent = r.U() != 0;
  row->result = static_cast<Verdict>(r.U());
  row->accuracy = static_cast<Accuracy>(r.U());
  row->err_messages.resize(r.U());
  for (std::string& m : row->err_messages) m = r.S();
  for (std::string* s : {&row->stack_info, &row->npu_data_name, &row->bench_data_name, &row->api}) *s = r.S();
  row->state = static_cast<RowState>(r.U());
  row->matched = r.U() != 0;
  row->attribution = static_cast<int32_t>(r.I());
}

}  // namespace

std::string EncodeStatisticsSlice(const StatisticsSlice& slice) {
  ByteWriter w;
  Put(w, slice.target_header);
  Put(w, slice.golden_header);
  w.U(static_cast<uint64_t>(slice.mode));
  w.U(slice.md5_unseen);
  Put(w, slice.target);
  Put(w, slice.golden);
  return std::move(w).Take();
}

StatisticsSlice DecodeStatisticsSlice(std::string_view bytes) {
  ByteReader r(bytes);
  StatisticsSlice slice;
  Get(r, &slice.target_header);
  Get(r, &slice.golden_header);
  slice.mode = static_cast<CompareMode>(r.U());
  slice.md5_unseen = r.U() != 0;
  Get(r, &slice.target);
  Get(r, &slice.golden);
  return slice;
}

std::string EncodeSliceRead(const SliceRead& read) {
  ByteWriter w;
  w.U(read.golden_rows);
  w.U(read.md5);
  return std::move(w).Take();
}

SliceRead DecodeSliceRead(std::string_view bytes) {
  ByteReader r(bytes);
  SliceRead read;
  read.golden_rows = r.U();
  read.md5 = r.U() != 0;
  return read;
}

std::string EncodeSliceTable(const SliceTable& t) {
  ByteWriter w;
  w.U(static_cast<uint64_t>(t.table.mode));
  w.U(t.table.with_stack);
  w.U(t.table.rows.size());
  for (const ResultRow& row : t.table.rows) Put(w, row);
  w.U(t.p2p.size());
  for (const P2pColumns& p : t.p2p) {
    for (const std::string* s : {&p.npu_op, &p.bench_op, &p.npu_peer, &p.bench_peer}) w.S(*s);
  }
  return std::move(w).Take();
}

SliceTable DecodeSliceTable(std::string_view bytes) {
  ByteReader r(bytes);
  SliceTable t;
  t.table.mode = static_cast<CompareMode>(r.U());
  t.table.with_stack = r.U() != 0;
  t.table.rows.resize(r.U());
  for (ResultRow& row : t.table.rows) Get(r, &row);
  t.p2p.resize(r.U());
  for (P2pColumns& p : t.p2p) {
    for (std::string* s : {&p.npu_op, &p.bench_op, &p.npu_peer, &p.bench_peer}) *s = r.S();
  }
  return t;
}

}  // namespace msprobe::compare::internal
