// One step's values across its ranks (docs/consistency.md §3-§4): the ranks' values added one rank
// at a time and kept by key (what must be identical over a group, whole; what is only scored, its
// Norm and Max), then the checks over them. Memory: the step's ranks × arguments.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "consistency/rank_values_internal.h"
#include "msprobe/compare/consistency/consistency_job.h"

namespace msprobe::compare::internal {

// What the checks counted over the steps, for summary.json's "checks".
struct CheckTally {
  uint64_t collective_values = 0, collective_groups_recorded = 0, collective_world = 0;  // groups: per argument
  uint64_t parameter_values = 0, grad_values = 0;
  uint64_t z_values = 0;
};

// summary.json's "checks": what ran over how many values, and how its groups were known or why it
// did not run. `parameters`: parameter arguments met; `grouped_parameters`: those given a group.
std::vector<ConsistencyCheck> DescribeChecks(const ConsistencyOptions& options, const CheckTally& tally,
                                             uint64_t parameters, uint64_t grouped_parameters);

class StepTable {
 public:
  // `ranks`: the step's ranks, ascending.
  StepTable(int64_t step, std::vector<int64_t> ranks, const ConsistencyOptions& options);

  // Adds a rank's values; ranks come in ascending order.
  void Add(RankValues&& values);
  // The findings of the step, in call order (the order keys were first met), then rank.
  void Check(std::vector<ConsistencyFinding>* findings, CheckTally* tally) const;

 private:
  struct ZSample {
    int64_t rank;
    double norm, max;
    uint8_t present;  // bit 0 Norm, bit 1 Max
  };
  struct IdentitySample {
    int64_t rank;
    std::string api, name;  // this rank's, when they differ from the key's
    ArgValue value;
  };
  struct Key {
    std::string api, name;  // of the first rank that holds it
    ArgRole role = ArgRole::kPlain;
    bool identity = false;
    std::vector<int64_t> members;  // identity: the group's ranks in this step
    bool recorded_group = false;   // identity of a collective: its group was recorded
    std::vector<ZSample> z;
    std::vector<IdentitySample> samples;
  };

  // Whether a rank's argument must be identical over a group, and which: its members in this step.
  bool IdentityGroup(const RankArg& arg, int64_t rank, std::vector<int64_t>* members) const;
  Key& KeyFor(const std::string& match, const RankArg& arg);
  void CheckIdentity(const Key& key, std::vector<ConsistencyFinding>* findings) const;
  void CheckScores(const Key& key, std::vector<ConsistencyFinding>* findings, CheckTally* tally) const;
  void ScorePopulation(const Key& key, const std::vector<const ZSample*>& population, int stat,
                       std::vector<ConsistencyFinding>* findings, CheckTally* tally) const;

  int64_t step_;
  std::vector<int64_t> ranks_;
  const ConsistencyOptions& options_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<Key> keys_;
};

}  // namespace msprobe::compare::internal
