// msprobe's --consistent_check pairing (docs/compare.md §3.9): the training rows and the rollout rows
// merged on their keys (rows/consistent_keys.h), both sides kept whole; the rows of one side that meet
// one row of the other joined into one (fsdp: training q/k/v or gate/up rows against the rollout's
// fused row; megatron: rollout rows against one training row); ordered so that both dumps' orders
// increase. The result rows before the metrics, with msprobe's joined statistics.
#pragma once

#include <string>
#include <vector>

#include "msprobe/compare/rows/consistent_keys.h"
#include "msprobe/compare/rows/flatten.h"
#include "msprobe/compare/table/op_row.h"
#include "msprobe/compare/table/result_row.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct ConsistentOptions {
  ConsistentBackend backend = ConsistentBackend::kFsdp;
  // Between joined names: msprobe writes ";  " in its csv, ";\n" when it writes an xlsx (--xlsx).
  std::string name_separator = ";  ";
};

// What the train-vs-rollout compare takes (InvalidInput naming the target otherwise): dump.json files
// (a debug.json's keys are not API calls) in tensor or statistics mode (msprobe's md5 mode has no
// column to keep).
Status CheckConsistentDumps(const FlatDump& target, const FlatDump& golden);

// `target` the training dump's rows (read through VerlParseFilter), `bench` the rollout's. InvalidInput
// naming the target when the two orders cannot both increase (msprobe's "Conflicting comparison
// data").
Result<std::vector<ResultRow>> BuildConsistentRows(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                                                   const ConsistentOptions& options, const std::string& source);

}  // namespace msprobe::compare
