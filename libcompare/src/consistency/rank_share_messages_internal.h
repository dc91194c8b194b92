// What the processes of a distributed consistency run send process 0 (docs/distributed.md §4), on the
// one codec (msprobe/dump/util/coding.h): the ranks of a step one process read, as the checks' compact
// values (no tensors), and the failure that stopped it. Only our own processes read these: a message
// that does not decode is a bug, and throws.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "consistency/rank_values_internal.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

struct RankShare {
  std::vector<RankValues> ranks;  // the ranks read, in rank order, up to the first that failed
  Status failure;                 // why the reading stopped; ok when every rank of the share was read
};

std::string EncodeRankShare(const RankShare& share);
RankShare DecodeRankShare(std::string_view bytes);

}  // namespace msprobe::compare::internal
