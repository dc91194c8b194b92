#include "jobs/pair_messages_internal.h"

#include <algorithm>
#include <utility>

#include "msprobe/dump/util/coding.h"

namespace msprobe::compare::internal {
namespace {

// By row: the same rows make the same message, whatever order the map holds them in.
void PutDiffRows(std::string* dst, const std::unordered_map<size_t, DiffRow>& rows) {
  std::vector<size_t> order;
  for (const auto& entry : rows) order.push_back(entry.first);
  std::sort(order.begin(), order.end());
  PutVector(dst, order, [&](std::string* dst, size_t row) {
    PutVarint64(dst, row);
    PutRowRef(dst, rows.at(row).ref);
    PutString(dst, rows.at(row).stack);
  });
}

bool GetDiffRows(Decoder* in, std::unordered_map<size_t, DiffRow>* rows) {
  uint64_t n = 0;
  if (!GetCount(in, &n)) return false;
  for (uint64_t i = 0; i < n; ++i) {
    size_t row = 0;
    DiffRow diff;
    if (!GetVarint64(in, &row) || !GetRowRef(in, &diff.ref) || !GetString(in, &diff.stack)) return false;
    rows->emplace(row, std::move(diff));
  }
  return true;
}

void PutMark(std::string* dst, const XlsxMark& mark) {
  PutVarint64(dst, mark.pair);
  PutVarint64(dst, mark.row);
  PutString(dst, mark.target_name);
  PutString(dst, mark.stack);
}

bool GetMark(Decoder* in, XlsxMark* mark) {
  return GetVarint64(in, &mark->pair) && GetVarint64(in, &mark->row) && GetString(in, &mark->target_name) &&
         GetString(in, &mark->stack);
}

}  // namespace

std::string EncodeEntry(const PairEntry& entry) {
  std::string out;
  PutVarint64(&out, entry.pair);
  PutStatus(&out, entry.status);
  PutString(&out, entry.payload);
  return out;
}

PairEntry DecodeEntry(std::string_view bytes) {
  PairEntry entry;
  DecodeMessage(bytes, "a pair's entry", [&](Decoder* in) {
    return GetVarint64(in, &entry.pair) && GetStatus(in, &entry.status) && GetString(in, &entry.payload);
  });
  return entry;
}

std::string EncodeOutcome(const PairOutcome& o) {
  std::string out;
  PutPairResult(&out, o.result);
  PutOptional(&out, o.junit, PutJunitSuite);
  PutOptional(&out, o.rank, PutRankDiffs);
  PutDiffRows(&out, o.diff_rows);
  PutOptional(&out, o.html_part, PutReportPart);
  return out;
}

PairOutcome DecodeOutcome(std::string_view bytes) {
  PairOutcome o;
  DecodeMessage(bytes, "a pair's outcome", [&](Decoder* in) {
    bool html = false;
    return GetPairResult(in, &o.result) && GetOptional(in, &o.junit, GetJunitSuite) &&
           GetOptional(in, &o.rank, GetRankDiffs) && GetDiffRows(in, &o.diff_rows) && GetBool(in, &html) &&
           (!html || GetReportPart(in, &o.html_part));
  });
  return o;
}

// The metrics row by row; of the files, only those that could not be read, by row.
std::string EncodeSlice(const MetricSlice& slice) {
  std::string out;
  PutVarint64(&out, slice.begin);
  PutVector(&out, slice.metrics, [](std::string* dst, const std::vector<Cell>& row) { PutVector(dst, row, PutCell); });
  std::vector<size_t> unreadable;
  for (size_t i = 0; i < slice.unreadable.size(); ++i) {
    if (!slice.unreadable[i].ok()) unreadable.push_back(i);
  }
  PutVector(&out, unreadable, [&](std::string* dst, size_t i) {
    PutVarint64(dst, i);
    PutStatus(dst, slice.unreadable[i]);
  });
  return out;
}

MetricSlice DecodeSlice(std::string_view bytes) {
  MetricSlice slice;
  DecodeMessage(bytes, "a metric slice", [&](Decoder* in) {
    uint64_t unreadable = 0;
    if (!GetVarint64(in, &slice.begin) ||
        !GetVector(in, &slice.metrics, [](Decoder* in, std::vector<Cell>* row) { return GetVector(in, row, GetCell); }) ||
        !GetCount(in, &unreadable)) {
      return false;
    }
    slice.unreadable.resize(slice.metrics.size());
    for (uint64_t k = 0; k < unreadable; ++k) {
      size_t i = 0;
      if (!GetVarint64(in, &i)) return false;
      if (i >= slice.unreadable.size()) return in->Fail("an unreadable file of row " + std::to_string(i) + " of none");
      if (!GetStatus(in, &slice.unreadable[i])) return false;
    }
    return true;
  });
  return slice;
}

std::string EncodeMarks(const std::vector<XlsxMark>& marks) {
  std::string out;
  PutVector(&out, marks, PutMark);
  return out;
}

std::vector<XlsxMark> DecodeMarks(std::string_view bytes) {
  std::vector<XlsxMark> marks;
  DecodeMessage(bytes, "-da's xlsx marks", [&](Decoder* in) { return GetVector(in, &marks, GetMark); });
  return marks;
}

}  // namespace msprobe::compare::internal
