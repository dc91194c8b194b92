#include "consistency/rank_values_internal.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <optional>
#include <utility>

#include "consistency/collective_call_internal.h"
#include "msprobe/dump/files/tensor_file.h"
#include "msprobe/dump/framework/dump_json.h"
#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/tensor/tensor_source.h"
#include "msprobe/dump/tensor/tensor_stats.h"
#include "msprobe/dump/text/python_format.h"

namespace msprobe::compare::internal {
namespace {

ArgValue RecordedValue(const TensorRecord& r) {
  ArgValue v;
  v.dtype = r.dtype;
  v.shape = fmt::format("[{}]", fmt::join(r.shape, ", "));
  const RecordedStat* stats[4] = {&r.max, &r.min, &r.mean, &r.norm};
  for (int k = 0; k < 4; ++k) {
    const bool number = stats[k]->kind == RecordedStat::Kind::kNumber || stats[k]->kind == RecordedStat::Kind::kBool;
    if (!number) continue;
    v.stats[k] = stats[k]->number;
    v.present |= static_cast<uint8_t>(1U << k);
  }
  if (r.md5) v.md5 = *r.md5;
  return v;
}

// The statistics and CRC-32 of the tensor file a record names, in place of the recorded ones.
Status Recompute(const TensorRecord& r, const std::string& tensor_dir, ArgValue* v) {
  if (!r.data_name) return Status::Ok();  // a tensor dump records every tensor with a file; keep what it says
  MSP_ASSIGN_OR_RETURN(const std::string path, ResolveDataName(tensor_dir, *r.data_name));
  MSP_ASSIGN_OR_RETURN(const TensorInfo info, ReadTensorFile(path));
  MSP_ASSIGN_OR_RETURN(const TensorSource source, TensorSource::Open(info));
  MSP_ASSIGN_OR_RETURN(const TensorStats stats, ComputeStats(source, {.xor64 = false}));
  v->stats = {stats.max, stats.min, stats.mean, stats.norm};
  v->present = stats.has_values ? 0x0f : 0;
  v->md5 = fmt::format("{:08x}", stats.crc32);
  return Status::Ok();
}

// The argument's name as msprobe's compare rows name it: input_args and input_kwargs are "input",
// a parameters_grad gradient drops its list index.
std::string ArgName(const std::string& entry, std::string_view path, bool grad) {
  for (std::string_view side : {"input_args", "input_kwargs"}) {
    if (path.starts_with(side) && (path.size() == side.size() || path[side.size()] == '.')) {
      return entry + ".input" + std::string(path.substr(side.size()));
    }
  }
  if (grad && path.ends_with(".0")) path.remove_suffix(2);
  return entry + "." + std::string(path);
}

bool UnderPath(std::string_view path, std::string_view prefix) {
  return path.starts_with(prefix) && (path.size() == prefix.size() || path[prefix.size()] == '.');
}

// A collective's input that may be a gradient being reduced, and the group reducing it.
struct ReducedInput {
  ArgValue value;
  bool grouped;
  std::vector<int64_t> group;
};

class RankReader : public DumpJsonVisitor {
 public:
  RankReader(RankValues* out, const RankReadOptions& options)
      : out_(out), options_(options), tensor_dir_(TensorDataDir(out->dump_json)) {}

  Status Member(std::string_view key, const JsonValue& value) override {
    if (key == "task" && value.IsString()) out_->task.assign(value.GetString(), value.GetStringLength());
    return Status::Ok();
  }

  Status Entry(std::string_view key, const JsonValue& entry) override {
    MSP_RETURN_IF_ERROR(CheckEntryShape(key, entry, out_->dump_json));
    records_.clear();
    MSP_RETURN_IF_ERROR(CollectEntryTensors(key, entry, out_->dump_json, &records_));
    const std::optional<CollectiveCall> call = ReadCollectiveCall(key, entry);
    std::string place;  // a collective result's match prefix
    if (call && !call->result_path.empty()) {
      const std::string group = call->grouped ? RanksText(call->group) : "world";
      place = fmt::format("{}@{}#{}", call->api, group, calls_[call->api + "@" + group]++);
    }
    const std::string_view k(key);
    const size_t forward = k.find(".forward");
    const size_t grad = k.find(".parameters_grad");
    const bool module_forward = k.starts_with("Module.") && forward != std::string_view::npos;
    for (TensorRecord& r : records_) {
      RankArg arg;
      arg.api = r.entry;
      arg.name = ArgName(r.entry, r.path, grad != std::string_view::npos);
      arg.value = RecordedValue(r);
      if (options_.recompute_stats) MSP_RETURN_IF_ERROR(Recompute(r, tensor_dir_, &arg.value));
      arg.match = arg.name;
      if (!place.empty() && UnderPath(r.path, call->result_path)) {
        arg.role = ArgRole::kCollectiveResult;
        arg.match = place + r.path.substr(call->result_path.size());
        arg.grouped = call->grouped;
        arg.group = call->group;
      } else if (call && call->reduces && (UnderPath(r.path, "input_args") || UnderPath(r.path, "input_kwargs"))) {
        reduced_.push_back({arg.value, call->grouped, call->group});
      } else if (module_forward && UnderPath(r.path, "parameters")) {
        arg.role = ArgRole::kParameter;
        params_[std::string(k.substr(0, forward)) + r.path.substr(std::string_view("parameters").size())].push_back(
            out_->args.size());
      } else if (grad != std::string_view::npos) {
        arg.role = ArgRole::kParameterGrad;
        grads_[arg.name.substr(0, grad) + arg.name.substr(arg.name.rfind('.'))].push_back(out_->args.size());
      }
      out_->args.push_back(std::move(arg));
    }
    return Status::Ok();
  }

  // A parameter whose gradient (on this rank) equals the input of a reducing collective is kept
  // alike over that collective's group: the data-parallel group, as far as this parameter goes.
  void InferDataParallelGroups() {
    for (const auto& [param, grad_args] : grads_) {
      const ReducedInput* reducer = nullptr;
      for (size_t a : grad_args) {
        for (const ReducedInput& in : reduced_) {
          if (in.value.SameAs(out_->args[a].value)) reducer = &in;
        }
      }
      if (reducer == nullptr) continue;
      std::vector<size_t> members = grad_args;
      if (const auto p = params_.find(param); p != params_.end()) members.insert(members.end(), p->second.begin(), p->second.end());
      for (size_t a : members) {
        out_->args[a].grouped = true;
        out_->args[a].group = reducer->grouped ? reducer->group : std::vector<int64_t>{};
      }
    }
  }

 private:
  RankValues* out_;
  const RankReadOptions& options_;
  const std::string tensor_dir_;
  std::vector<TensorRecord> records_;
  std::map<std::string, uint64_t> calls_;                  // "all_reduce@0,1" → calls so far
  std::vector<ReducedInput> reduced_;
  std::map<std::string, std::vector<size_t>> params_, grads_;  // "Module.fc1.Linear.weight" → args
};

}  // namespace

bool ArgValue::SameAs(const ArgValue& o) const {
  if (dtype != o.dtype || shape != o.shape || md5 != o.md5 || present != o.present) return false;
  for (int k = 0; k < 4; ++k) {
    if (Has(k) && stats[k] != o.stats[k] && !(std::isnan(stats[k]) && std::isnan(o.stats[k]))) return false;
  }
  return true;
}

std::string ArgValue::Text() const {
  std::string text;
  for (int k = 0; k < 4; ++k) {
    if (!Has(k)) continue;
    text += fmt::format("{}{}={}", text.empty() ? "" : ", ", kStatNames[k], PythonFloatRepr(stats[k]));
  }
  if (!md5.empty()) text += fmt::format("{}md5={}", text.empty() ? "" : ", ", md5);
  return text.empty() ? fmt::format("{} {}", dtype, shape) : text;
}

Result<RankValues> ReadRankValues(const std::string& dump_json, int64_t step, int64_t rank,
                                  const RankReadOptions& options) {
  RankValues out;
  out.step = step;
  out.rank = rank;
  out.dump_json = dump_json;
  RankReader reader(&out, options);
  MSP_ASSIGN_OR_RETURN(const DumpJsonHeader header, StreamDumpJson(dump_json, reader));
  if (!header.has_data) return Status::InvalidInput(dump_json, "no \"data\" object");
  reader.InferDataParallelGroups();
  return out;
}

}  // namespace msprobe::compare::internal
