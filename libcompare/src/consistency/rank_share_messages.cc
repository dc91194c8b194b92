#include "consistency/rank_share_messages_internal.h"

#include "msprobe/dump/util/coding.h"

namespace msprobe::compare::internal {
namespace {

void PutArgValue(std::string* dst, const ArgValue& v) {
  PutString(dst, v.dtype);
  PutString(dst, v.shape);
  for (double stat : v.stats) PutDouble(dst, stat);
  PutVarint32(dst, v.present);
  PutString(dst, v.md5);
}

bool GetArgValue(Decoder* in, ArgValue* v) {
  uint32_t present = 0;
  if (!GetString(in, &v->dtype) || !GetString(in, &v->shape)) return false;
  for (double& stat : v->stats) {
    if (!GetDouble(in, &stat)) return false;
  }
  if (!GetVarint32(in, &present)) return false;
  if (present > 0x0f) return in->Fail("statistics present " + std::to_string(present) + ": 4 bits at most");
  v->present = static_cast<uint8_t>(present);
  return GetString(in, &v->md5);
}

void PutRankArg(std::string* dst, const RankArg& arg) {
  PutString(dst, arg.api);
  PutString(dst, arg.name);
  PutEnum(dst, arg.role);
  PutString(dst, arg.match);
  PutBool(dst, arg.grouped);
  PutVector(dst, arg.group, PutSignedVarint64);
  PutArgValue(dst, arg.value);
}

bool GetRankArg(Decoder* in, RankArg* arg) {
  return GetString(in, &arg->api) && GetString(in, &arg->name) && GetEnum(in, &arg->role, ArgRole::kParameterGrad) &&
         GetString(in, &arg->match) && GetBool(in, &arg->grouped) && GetVector(in, &arg->group, GetSignedVarint64) &&
         GetArgValue(in, &arg->value);
}

void PutRankValues(std::string* dst, const RankValues& values) {
  PutSignedVarint64(dst, values.step);
  PutSignedVarint64(dst, values.rank);
  PutString(dst, values.dump_json);
  PutString(dst, values.task);
  PutVector(dst, values.args, PutRankArg);
}

bool GetRankValues(Decoder* in, RankValues* values) {
  return GetSignedVarint64(in, &values->step) && GetSignedVarint64(in, &values->rank) &&
         GetString(in, &values->dump_json) && GetString(in, &values->task) && GetVector(in, &values->args, GetRankArg);
}

}  // namespace

std::string EncodeRankShare(const RankShare& share) {
  std::string out;
  PutVector(&out, share.ranks, PutRankValues);
  PutStatus(&out, share.failure);
  return out;
}

RankShare DecodeRankShare(std::string_view bytes) {
  RankShare share;
  DecodeMessage(bytes, "a share of a step's ranks",
                [&](Decoder* in) { return GetVector(in, &share.ranks, GetRankValues) && GetStatus(in, &share.failure); });
  return share;
}

}  // namespace msprobe::compare::internal
