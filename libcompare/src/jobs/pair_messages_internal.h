// What the processes of a distributed compare send each other about pairs (docs/distributed.md §4),
// on the one codec (msprobe/dump/util/coding.h): a process's word on a pair, a compared pair's
// outcome, a tensor pair's metric slice, and -da's xlsx marks. Only our own processes read these: a
// message that does not decode is a bug, and throws.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/pair_in_memory_internal.h"
#include "jobs/pair_outputs_internal.h"
#include "jobs/run_recorder_internal.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

// What a process says of one pair: whether its part went well, and then its payload (an encoded
// outcome or slice; empty on failure).
struct PairEntry {
  size_t pair = 0;
  Status status;
  std::string payload;
};
std::string EncodeEntry(const PairEntry& entry);
PairEntry DecodeEntry(std::string_view bytes);

// Everything but the pending xlsx, which stays with the process that wrote its rows.
std::string EncodeOutcome(const PairOutcome& outcome);
PairOutcome DecodeOutcome(std::string_view bytes);

std::string EncodeSlice(const MetricSlice& slice);
MetricSlice DecodeSlice(std::string_view bytes);

std::string EncodeMarks(const std::vector<XlsxMark>& marks);
std::vector<XlsxMark> DecodeMarks(std::string_view bytes);

}  // namespace msprobe::compare::internal
