// What a communication op's record says of the processes it involves (docs/compare.md §8.2): the API
// of its name, and the ranks of a recorded torch.distributed ProcessGroup. Read by the communication
// graph of -da and overflow_check, and by msprobe-dump consistency's collectives (docs/consistency.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/text/json_file.h"

namespace msprobe::compare {

// op_name.split('.')[1]: "all_reduce" of "Distributed.all_reduce.0.forward"; "" without a dot.
std::string CommApiOf(std::string_view op_name);

// An integral JSON number as a rank (what a Python set of them would hold and look up).
std::optional<int> RankOf(const JsonValue* v);

// The integral ranks of a recorded ProcessGroup's "group_ranks" list ({"type": "torch.ProcessGroup",
// "group_ranks": [0, 1], "group_id": …}), in recorded order; nullopt when `group` is not an object
// with such a list.
std::optional<std::vector<int>> ProcessGroupRanks(const JsonValue& group);

}  // namespace msprobe::compare
