// What the processes of a distributed consistency run send process 0 (docs/distributed.md §4), on the
// one codec (msprobe/dump/util/coding.h): the ranks of a step one process read, as the checks' compact
// values (no tensors), and the failure that stopped it; written and read a rank at a time. Only our own
// processes read these: a message that does not decode is a bug, and throws.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "consistency/rank_values_internal.h"
#include "msprobe/dump/util/coding.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

struct RankShare {
  std::vector<RankValues> ranks;  // the ranks read, in rank order, up to the first that failed
  Status failure;                 // why the reading stopped; ok when every rank of the share was read
};

// A share written a rank at a time as the ranks are read: a process holds its share encoded, not as
// values. On the wire each rank follows a `true`; `false` and the failure end the share.
class RankShareWriter {
 public:
  void Add(const RankValues& values);
  std::string Finish(const Status& failure) &&;

 private:
  std::string bytes_;
};

// A share read back a rank at a time: process 0 holds a step encoded and one rank decoded. `bytes`
// must outlive the reader.
class RankShareReader {
 public:
  explicit RankShareReader(std::string_view bytes) : in_(bytes, kSource) {}
  // The next rank, or nullopt at the share's end, after which failure() says why it ended. Throws
  // std::logic_error when the bytes do not decode (or some are left over at the end).
  std::optional<RankValues> Next();
  const Status& failure() const { return failure_; }

 private:
  static constexpr std::string_view kSource = "a share of a step's ranks";
  Decoder in_;
  Status failure_;
};

std::string EncodeRankShare(const RankShare& share);
RankShare DecodeRankShare(std::string_view bytes);

}  // namespace msprobe::compare::internal
