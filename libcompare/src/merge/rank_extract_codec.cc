#include "merge/rank_extract_internal.h"

#include "msprobe/dump/util/coding.h"

namespace msprobe::compare {
namespace {

void PutValue(std::string* dst, const MergeValue& v) {
  PutEnum(dst, v.kind);
  switch (v.kind) {
    case MergeValue::Kind::kMissing: break;
    case MergeValue::Kind::kText: PutString(dst, v.text); break;
    case MergeValue::Kind::kFloat: PutDouble(dst, v.number); break;
    case MergeValue::Kind::kInt:
    case MergeValue::Kind::kBool: PutSignedVarint64(dst, v.integer); break;
  }
}

// A text, viewing its copy in `texts`.
bool GetText(Decoder* in, std::string_view* text, std::deque<std::string>* texts) {
  if (!GetString(in, &texts->emplace_back())) return false;
  *text = texts->back();
  return true;
}

bool GetValue(Decoder* in, MergeValue* v, std::deque<std::string>* texts) {
  if (!GetEnum(in, &v->kind, MergeValue::Kind::kBool)) return false;
  switch (v->kind) {
    case MergeValue::Kind::kMissing: return true;
    case MergeValue::Kind::kText: return GetText(in, &v->text, texts);
    case MergeValue::Kind::kFloat: return GetDouble(in, &v->number);
    case MergeValue::Kind::kInt:
    case MergeValue::Kind::kBool: return GetSignedVarint64(in, &v->integer);
  }
  return in->Fail("a value of no kind");  // GetEnum lets none through
}

}  // namespace

std::string EncodeExtract(const RankExtract& e) {
  std::string out;
  PutVarint64(&out, e.input.rank);
  PutString(&out, e.input.path);
  PutVector(&out, e.warnings, PutString);
  PutBool(&out, e.usable);
  PutVector(&out, e.indexes, PutString);
  PutVector(&out, e.names, PutString);
  PutVector(&out, e.values, [](std::string* dst, const std::vector<MergeValue>& column) {
    PutVector(dst, column, PutValue);
  });
  PutVector(&out, e.mode_indexes, PutString);
  PutVector(&out, e.other_apis, PutString);
  return out;
}

RankExtract DecodeExtract(std::string_view bytes) {
  RankExtract e;
  e.data = std::make_unique<RankData>();
  std::deque<std::string>& texts = e.data->replaced;  // owns every text the extract views
  const auto get_name = [&](Decoder* in, std::string_view* name) { return GetText(in, name, &texts); };
  const auto get_column = [&](Decoder* in, std::vector<MergeValue>* column) {
    return GetVector(in, column, [&](Decoder* in, MergeValue* v) { return GetValue(in, v, &texts); });
  };
  DecodeMessage(bytes, "a rank's extract", [&](Decoder* in) {
    return GetVarint64(in, &e.input.rank) && GetString(in, &e.input.path) && GetVector(in, &e.warnings, GetString) &&
           GetBool(in, &e.usable) && GetVector(in, &e.indexes, GetString) && GetVector(in, &e.names, get_name) &&
           GetVector(in, &e.values, get_column) && GetVector(in, &e.mode_indexes, GetString) &&
           GetVector(in, &e.other_apis, GetString);
  });
  return e;
}

}  // namespace msprobe::compare
