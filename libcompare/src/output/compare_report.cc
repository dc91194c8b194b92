#include "msprobe/compare/output/compare_report.h"

#include "msprobe/dump/util/coding.h"

namespace msprobe::compare {
namespace {

void PutFirstCause(std::string* dst, const FirstCause& cause) {
  PutString(dst, cause.api);
  PutString(dst, cause.kind);
  PutOptional(dst, cause.argument, PutString);
  PutVarint64(dst, cause.row);
}

bool GetFirstCause(Decoder* in, FirstCause* cause) {
  return GetString(in, &cause->api) && GetString(in, &cause->kind) && GetOptional(in, &cause->argument, GetString) &&
         GetVarint64(in, &cause->row);
}

}  // namespace

void PutUnmatchedRows(std::string* dst, const UnmatchedRows& rows) {
  PutVarint64(dst, rows.target);
  PutOptional(dst, rows.first_target, PutRowRef);
  PutVarint64(dst, rows.golden);
  PutString(dst, rows.first_golden);
}

bool GetUnmatchedRows(Decoder* in, UnmatchedRows* rows) {
  return GetVarint64(in, &rows->target) && GetOptional(in, &rows->first_target, GetRowRef) &&
         GetVarint64(in, &rows->golden) && GetString(in, &rows->first_golden);
}

void PutPairResult(std::string* dst, const PairResult& r) {
  for (const std::string* s : {&r.target_json, &r.golden_json, &r.label}) PutString(dst, *s);
  PutVector(dst, r.outputs, PutString);
  PutString(dst, r.mode);
  for (uint64_t n : {r.rows, r.passed, r.warnings, r.errors}) PutVarint64(dst, n);
  PutString(dst, r.skipped_reason);
  PutOptional(dst, r.first_error, PutRowRef);
  PutOptional(dst, r.first_warning, PutRowRef);
  PutVector(dst, r.worst, PutWorstRow);
  PutOptional(dst, r.first_cause, PutFirstCause);
  PutVarint64(dst, r.unreadable_tensors);
  PutString(dst, r.first_unreadable);
  PutVarint64(dst, r.matched_rows);
  PutVarint64(dst, r.golden_rows);
  PutUnmatchedRows(dst, r.unmatched);
  PutString(dst, r.target_level);
  PutString(dst, r.golden_level);
  PutBool(dst, r.streamed);
}

bool GetPairResult(Decoder* in, PairResult* r) {
  for (std::string* s : {&r->target_json, &r->golden_json, &r->label}) {
    if (!GetString(in, s)) return false;
  }
  if (!GetVector(in, &r->outputs, GetString) || !GetString(in, &r->mode)) return false;
  for (uint64_t* n : {&r->rows, &r->passed, &r->warnings, &r->errors}) {
    if (!GetVarint64(in, n)) return false;
  }
  return GetString(in, &r->skipped_reason) && GetOptional(in, &r->first_error, GetRowRef) &&
         GetOptional(in, &r->first_warning, GetRowRef) && GetVector(in, &r->worst, GetWorstRow) &&
         GetOptional(in, &r->first_cause, GetFirstCause) && GetVarint64(in, &r->unreadable_tensors) &&
         GetString(in, &r->first_unreadable) && GetVarint64(in, &r->matched_rows) &&
         GetVarint64(in, &r->golden_rows) && GetUnmatchedRows(in, &r->unmatched) && GetString(in, &r->target_level) &&
         GetString(in, &r->golden_level) && GetBool(in, &r->streamed);
}

const PairResult* PairOfRowFile(const CompareReport& report, const std::string& file) {
  for (const PairResult& pair : report.pairs) {
    if (pair.RowFile() == file) return &pair;
  }
  return nullptr;
}

}  // namespace msprobe::compare
