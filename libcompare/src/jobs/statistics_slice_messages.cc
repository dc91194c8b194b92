#include "jobs/statistics_slice_messages_internal.h"

#include "jobs/pair_outputs_internal.h"
#include "msprobe/dump/util/coding.h"

namespace msprobe::compare::internal {
namespace {

void PutHeader(std::string* dst, const DumpJsonHeader& h) {
  PutString(dst, h.task);
  PutString(dst, h.level);
  PutString(dst, h.framework);
  PutBool(dst, h.has_data);
}

bool GetHeader(Decoder* in, DumpJsonHeader* h) {
  return GetString(in, &h->task) && GetString(in, &h->level) && GetString(in, &h->framework) &&
         GetBool(in, &h->has_data);
}

// Each entry: where it lies, then its call orders.
void PutEntries(std::string* dst, const EntrySlice& s) {
  PutVarint64(dst, s.entries.size());
  for (size_t i = 0; i < s.entries.size(); ++i) {
    PutString(dst, s.entries[i].key);
    PutVarint64(dst, s.entries[i].begin);
    PutVarint64(dst, s.entries[i].end);
    PutSignedVarint32(dst, s.orders[i].forward);
    PutSignedVarint32(dst, s.orders[i].backward);
  }
}

bool GetEntries(Decoder* in, EntrySlice* s) {
  uint64_t n = 0;
  if (!GetCount(in, &n)) return false;
  s->entries.resize(n);
  s->orders.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    JsonMemberSpan& span = s->entries[i];
    CallOrder& order = s->orders[i];
    if (!GetString(in, &span.key) || !GetVarint64(in, &span.begin) || !GetVarint64(in, &span.end) ||
        !GetSignedVarint32(in, &order.forward) || !GetSignedVarint32(in, &order.backward)) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string EncodeStatisticsSlice(const StatisticsSlice& slice) {
  std::string out;
  PutHeader(&out, slice.target_header);
  PutHeader(&out, slice.golden_header);
  PutEnum(&out, slice.mode);
  PutBool(&out, slice.md5_unseen);
  PutEntries(&out, slice.target);
  PutEntries(&out, slice.golden);
  return out;
}

StatisticsSlice DecodeStatisticsSlice(std::string_view bytes) {
  StatisticsSlice slice;
  DecodeMessage(bytes, "a statistics slice", [&](Decoder* in) {
    return GetHeader(in, &slice.target_header) && GetHeader(in, &slice.golden_header) &&
           GetEnum(in, &slice.mode, CompareMode::kMd5) && GetBool(in, &slice.md5_unseen) &&
           GetEntries(in, &slice.target) && GetEntries(in, &slice.golden);
  });
  return slice;
}

std::string EncodeSliceRead(const SliceRead& read) {
  std::string out;
  PutVarint64(&out, read.golden_rows);
  PutBool(&out, read.md5);
  PutVarint64(&out, read.unmatched_golden);
  PutString(&out, read.first_unmatched);
  PutVarint64(&out, read.first_unmatched_at);
  return out;
}

SliceRead DecodeSliceRead(std::string_view bytes) {
  SliceRead read;
  DecodeMessage(bytes, "what a slice read", [&](Decoder* in) {
    return GetVarint64(in, &read.golden_rows) && GetBool(in, &read.md5) && GetVarint64(in, &read.unmatched_golden) &&
           GetString(in, &read.first_unmatched) && GetVarint64(in, &read.first_unmatched_at);
  });
  return read;
}

std::string EncodeSliceTable(const SliceTable& t) {
  std::string out;
  PutEnum(&out, t.table.mode);
  PutBool(&out, t.table.with_stack);
  PutVector(&out, t.table.rows, PutResultRow);
  PutVector(&out, t.p2p, PutP2pColumns);
  return out;
}

SliceTable DecodeSliceTable(std::string_view bytes) {
  SliceTable t;
  DecodeMessage(bytes, "a slice's rows", [&](Decoder* in) {
    return GetEnum(in, &t.table.mode, CompareMode::kMd5) && GetBool(in, &t.table.with_stack) &&
           GetVector(in, &t.table.rows, GetResultRow) && GetVector(in, &t.p2p, GetP2pColumns);
  });
  return t;
}

std::string EncodeSlicePart(const PairOutputsPart& part) {
  std::string out;
  PutPairOutputsPart(&out, part);
  return out;
}

void DecodeSlicePart(std::string_view bytes, PairOutputsPart* part) {
  DecodeMessage(bytes, "a slice's rows made ready for the outputs",
                [&](Decoder* in) { return GetPairOutputsPart(in, part); });
}

}  // namespace msprobe::compare::internal
