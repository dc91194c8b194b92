// The checks over one step's table (docs/consistency.md §3-§4): identity over each group, the
// robust z-score over the ranks for everything else.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "consistency/collective_call_internal.h"
#include "consistency/robust_z_internal.h"
#include "consistency/step_table_internal.h"
#include "msprobe/dump/text/python_format.h"

namespace msprobe::compare::internal {
namespace {

const char* CheckName(ArgRole role) {
  switch (role) {
    case ArgRole::kCollectiveResult: return "collective result";
    case ArgRole::kParameter: return "parameter";
    case ArgRole::kParameterGrad: return "parameter gradient";
    case ArgRole::kPlain: break;
  }
  return "value";
}

// The ranks that agree on one value.
struct ValueClass {
  const ArgValue* value;
  std::vector<size_t> samples;
};

}  // namespace

void StepTable::Check(std::vector<ConsistencyFinding>* findings, CheckTally* tally) const {
  for (const Key& key : keys_) {
    if (!key.identity) {
      CheckScores(key, findings, tally);
      continue;
    }
    CheckIdentity(key, findings);
    if (key.role == ArgRole::kCollectiveResult) {
      tally->collective_values += key.samples.size();
      ++(key.recorded_group ? tally->collective_groups_recorded : tally->collective_world);
    } else if (key.role == ArgRole::kParameter) {
      tally->parameter_values += key.samples.size();
    } else {
      tally->grad_values += key.samples.size();
    }
  }
}

void StepTable::CheckIdentity(const Key& key, std::vector<ConsistencyFinding>* findings) const {
  std::vector<ValueClass> classes;
  std::vector<int64_t> holders;
  for (size_t i = 0; i < key.samples.size(); ++i) {
    const ArgValue& v = key.samples[i].value;
    holders.push_back(key.samples[i].rank);
    const auto same = std::find_if(classes.begin(), classes.end(), [&](const ValueClass& c) { return c.value->SameAs(v); });
    if (same == classes.end()) {
      classes.push_back({&v, {i}});
    } else {
      same->samples.push_back(i);
    }
  }
  // A member that did not record a collective its group's others did: the calls went out of step.
  std::vector<int64_t> missing;
  if (key.role == ArgRole::kCollectiveResult) {
    std::set_difference(key.members.begin(), key.members.end(), holders.begin(), holders.end(), std::back_inserter(missing));
  }
  if (classes.size() <= 1 && missing.empty()) return;
  const size_t n = key.samples.size() + missing.size();
  const ValueClass* majority = nullptr;
  for (const ValueClass& c : classes) {
    if (2 * c.samples.size() > n) majority = &c;
  }
  std::string group = RanksText(key.members);
  if (key.role == ArgRole::kCollectiveResult && !key.recorded_group) group += " (world)";
  const auto finding = [&](int64_t rank, const std::string& api, const std::string& name) -> ConsistencyFinding& {
    ConsistencyFinding& f = findings->emplace_back();
    f.kind = ConsistencyFinding::Kind::kInconsistency;
    f.step = step_, f.rank = rank, f.api = api, f.name = name, f.check = CheckName(key.role), f.group = group;
    return f;
  };
  const size_t first = findings->size();
  for (const ValueClass& c : classes) {
    if (&c == majority) continue;
    for (size_t i : c.samples) {
      const IdentitySample& s = key.samples[i];
      ConsistencyFinding& f = finding(s.rank, s.api.empty() ? key.api : s.api, s.name.empty() ? key.name : s.name);
      f.value = s.value.Text();
      if (majority != nullptr) {
        f.expected = majority->value->Text();
        f.reason = fmt::format("{} of the group's {} ranks agree on another value", majority->samples.size(), n);
      } else if (n == 2 && classes.size() == 2) {
        const ValueClass& other = classes[&c == &classes[0] ? 1 : 0];
        f.expected = other.value->Text();
        f.reason = fmt::format("differs from rank {}; a group of 2 cannot tell which is wrong",
                               key.samples[other.samples[0]].rank);
      } else {
        f.reason = fmt::format("no value is held by most of the group's {} ranks ({} different values)", n, classes.size());
      }
    }
  }
  for (int64_t rank : missing) {
    ConsistencyFinding& f = finding(rank, key.api, key.name);
    f.value = "(not recorded)";
    if (majority != nullptr) f.expected = majority->value->Text();
    f.reason = fmt::format("{} of the group's {} ranks recorded this call; this rank did not", key.samples.size(), n);
  }
  std::stable_sort(findings->begin() + static_cast<std::ptrdiff_t>(first), findings->end(),
                   [](const ConsistencyFinding& a, const ConsistencyFinding& b) { return a.rank < b.rank; });
}

void StepTable::CheckScores(const Key& key, std::vector<ConsistencyFinding>* findings, CheckTally* tally) const {
  // The populations scored apart: the given data-parallel groups (and the ranks in none), else all.
  std::vector<std::vector<const ZSample*>> populations;
  const DataParallelSpec& dp = options_.data_parallel;
  if (dp.kind == DataParallelSpec::Kind::kGroups) {
    populations.resize(dp.groups.size() + 1);
    for (const ZSample& s : key.z) {
      size_t g = 0;
      while (g < dp.groups.size() && !std::binary_search(dp.groups[g].begin(), dp.groups[g].end(), s.rank)) ++g;
      populations[g].push_back(&s);
    }
  } else {
    populations.emplace_back();
    for (const ZSample& s : key.z) populations.back().push_back(&s);
  }
  for (const std::vector<const ZSample*>& population : populations) {
    for (int stat : {kNorm, kMax}) ScorePopulation(key, population, stat, findings, tally);
  }
}

void StepTable::ScorePopulation(const Key& key, const std::vector<const ZSample*>& population, int stat,
                                std::vector<ConsistencyFinding>* findings, CheckTally* tally) const {
  const uint8_t bit = stat == kNorm ? 1 : 2;
  const auto value_of = [&](const ZSample* s) { return stat == kNorm ? s->norm : s->max; };
  std::vector<const ZSample*> finite, other;
  std::vector<double> values;
  std::vector<int64_t> ranks;
  for (const ZSample* s : population) {
    if (!(s->present & bit)) continue;
    ranks.push_back(s->rank);
    (std::isfinite(value_of(s)) ? finite : other).push_back(s);
    if (std::isfinite(value_of(s))) values.push_back(value_of(s));
  }
  if (finite.size() < 3) return;
  tally->z_values += finite.size();
  const RobustScores scores = ScoreRobustly(values);
  const size_t first = findings->size();
  const std::string check = fmt::format("{} z-score", kStatNames[stat]);
  const std::string group = RanksText(ranks), median = PythonFloatRepr(scores.median);
  const auto suspect = [&](const ZSample* s) -> ConsistencyFinding& {
    ConsistencyFinding& f = findings->emplace_back();
    f.kind = ConsistencyFinding::Kind::kSuspect;
    f.step = step_, f.rank = s->rank, f.api = key.api, f.name = key.name, f.check = check, f.group = group;
    f.value = PythonFloatRepr(value_of(s));
    f.expected = median;
    return f;
  };
  for (size_t i = 0; i < finite.size(); ++i) {
    if (!(std::fabs(scores.z[i]) > options_.z_threshold)) continue;
    ConsistencyFinding& f = suspect(finite[i]);
    f.score = scores.z[i];
    f.reason = fmt::format("modified z-score {:.2f}: |z| > {} against the median of {} ranks", scores.z[i],
                           options_.z_threshold, finite.size());
  }
  // NaN or ±inf where most ranks hold a finite value.
  if (2 * finite.size() > ranks.size()) {
    for (const ZSample* s : other) {
      suspect(s).reason = fmt::format("not finite where {} of {} ranks are", finite.size(), ranks.size());
    }
  }
  std::stable_sort(findings->begin() + static_cast<std::ptrdiff_t>(first), findings->end(),
                   [](const ConsistencyFinding& a, const ConsistencyFinding& b) { return a.rank < b.rank; });
}

}  // namespace msprobe::compare::internal
