#include "consistency/rank_share_messages_internal.h"

#include <stdexcept>
#include <utility>

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

void RankShareWriter::Add(const RankValues& values) {
  PutBool(&bytes_, true);
  PutRankValues(&bytes_, values);
}

std::string RankShareWriter::Finish(const Status& failure) && {
  PutBool(&bytes_, false);
  PutStatus(&bytes_, failure);
  return std::move(bytes_);
}

std::optional<RankValues> RankShareReader::Next() {
  bool more = false;
  std::optional<RankValues> values;
  if (GetBool(&in_, &more) && more) {
    if (GetRankValues(&in_, &values.emplace()) && in_.ok()) return values;
  } else if (in_.ok() && GetStatus(&in_, &failure_) && in_.size() != 0) {
    in_.Fail(std::to_string(in_.size()) + " bytes left over");
  }
  if (!in_.ok()) throw std::logic_error("a message that does not decode: " + in_.status().ToString());
  return std::nullopt;
}

std::string EncodeRankShare(const RankShare& share) {
  RankShareWriter writer;
  for (const RankValues& values : share.ranks) writer.Add(values);
  return std::move(writer).Finish(share.failure);
}

RankShare DecodeRankShare(std::string_view bytes) {
  RankShare share;
  RankShareReader reader(bytes);
  while (std::optional<RankValues> values = reader.Next()) share.ranks.push_back(std::move(*values));
  share.failure = reader.failure();
  return share;
}

}  // namespace msprobe::compare::internal
