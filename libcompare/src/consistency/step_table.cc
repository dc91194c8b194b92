#include "consistency/step_table_internal.h"

#include <algorithm>
#include <utility>

#include "consistency/collective_call_internal.h"

namespace msprobe::compare::internal {

StepTable::StepTable(int64_t step, std::vector<int64_t> ranks, const ConsistencyOptions& options)
    : step_(step), ranks_(std::move(ranks)), options_(options) {}

bool StepTable::IdentityGroup(const RankArg& arg, int64_t rank, std::vector<int64_t>* members) const {
  const auto in_step = [&](const std::vector<int64_t>& group) {
    members->clear();
    for (int64_t r : group) {
      if (std::binary_search(ranks_.begin(), ranks_.end(), r)) members->push_back(r);
    }
    if (!std::binary_search(members->begin(), members->end(), rank)) {
      members->insert(std::upper_bound(members->begin(), members->end(), rank), rank);
    }
  };
  if (arg.role == ArgRole::kCollectiveResult) {
    in_step(arg.grouped ? arg.group : ranks_);
    return true;
  }
  const bool parameter = arg.role == ArgRole::kParameter || (arg.role == ArgRole::kParameterGrad && options_.grads_reduced);
  if (!parameter) return false;
  const DataParallelSpec& dp = options_.data_parallel;
  switch (dp.kind) {
    case DataParallelSpec::Kind::kNone: return false;
    case DataParallelSpec::Kind::kAll: in_step(ranks_); return true;
    case DataParallelSpec::Kind::kAuto:
      if (!arg.grouped) return false;
      in_step(arg.group.empty() ? ranks_ : arg.group);
      return true;
    case DataParallelSpec::Kind::kGroups:
      for (const std::vector<int64_t>& group : dp.groups) {
        if (std::binary_search(group.begin(), group.end(), rank)) {
          in_step(group);
          return true;
        }
      }
      return false;
  }
  return false;
}

StepTable::Key& StepTable::KeyFor(const std::string& match, const RankArg& arg) {
  const auto [it, added] = index_.try_emplace(match, keys_.size());
  if (added) {
    Key key;
    key.api = arg.api;
    key.name = arg.name;
    key.role = arg.role;
    keys_.push_back(std::move(key));
  }
  return keys_[it->second];
}

void StepTable::Add(RankValues&& values) {
  std::vector<int64_t> members;
  for (RankArg& arg : values.args) {
    if (!IdentityGroup(arg, values.rank, &members)) {
      Key& key = KeyFor(arg.name, arg);
      const ArgValue& v = arg.value;
      key.z.push_back({values.rank, v.stats[kNorm], v.stats[kMax],
                       static_cast<uint8_t>((v.Has(kNorm) ? 1 : 0) | (v.Has(kMax) ? 2 : 0))});
      continue;
    }
    // Parameters are matched by name within their group; a collective's result by its place among
    // its group's calls, which already names the group.
    const std::string match =
        arg.role == ArgRole::kCollectiveResult ? arg.match : arg.name + "@" + RanksText(members);
    Key& key = KeyFor(match, arg);
    if (!key.identity) {
      key.identity = true;
      key.members = members;
      key.recorded_group = arg.grouped;
    }
    IdentitySample sample{values.rank, {}, {}, std::move(arg.value)};
    if (arg.api != key.api) sample.api = std::move(arg.api);
    if (arg.name != key.name) sample.name = std::move(arg.name);
    key.samples.push_back(std::move(sample));
  }
}

}  // namespace msprobe::compare::internal
