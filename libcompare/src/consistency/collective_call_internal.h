// The collectives the consistency check knows (docs/consistency.md §3): which leave every member of
// their group holding the same result, where msprobe records that result in the call's entry (its
// "output" is the call's arguments after it returns: args, then kwargs' values), which reduce their
// input (a gradient, when it equals a parameters_grad entry), and the group the call names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/text/json_file.h"

namespace msprobe::compare::internal {

struct CollectiveCall {
  std::string api;                 // "all_reduce"
  bool identical_result = false;   // all_reduce, broadcast, all_gather and their variants
  bool reduces = false;            // all_reduce, reduce, reduce_scatter and their variants
  std::string result_path;         // identical results: the result's path in the entry ("output.0"); "" when
                                   // the entry does not show where it is
  bool grouped = false;            // a ProcessGroup recorded (group kwarg, or an argument); else the world's
  std::vector<int64_t> group;      // its ranks, ascending
};

// The forward call of a torch.distributed (Distributed.*, MintDistributed.*) collective that the
// entry `key` records, or nullopt for any other entry.
std::optional<CollectiveCall> ReadCollectiveCall(std::string_view key, const JsonValue& entry);

// "0-3", "0,2,4-7": ranks (ascending) as ranges.
std::string RanksText(const std::vector<int64_t>& ranks);

}  // namespace msprobe::compare::internal
