// msprobe -da's per-rank result file compare_result_rank{N}_{ts}.json (docs/compare.md §8.1):
// {"<api key>": {"is_same": bool, "op_items": [{<every column>, "state", "api_origin_name",
// "NPU P2POp op", "Bench P2POp op", "NPU P2POp peer", "Bench P2POp peer"}, ...]}, ...}
// in json.dump's indent-4 layout, byte for byte as msprobe writes it.
#pragma once

#include <string>
#include <vector>

#include "msprobe/compare/first_diff/api_diff_check.h"
#include "msprobe/compare/first_diff/diff_analyze.h"
#include "msprobe/compare/table/result_table.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

// msprobe's "state" column value: input, output, parameters, parameters_grad or debug.
const char* RowStateName(RowState state);

// Writes `checks` (from CheckApis(table)) to `path` atomically. `p2p` has one entry per table row.
// NPU_Stack_Info is written as the stack list msprobe keeps (its text is parsed back) or "N/A".
Status WriteCompareResultJson(const std::string& path, const ResultTable& table, const std::vector<P2pColumns>& p2p,
                              const std::vector<ApiCheck>& checks);

// WriteCompareResultJson over a table that comes in pieces: each Append writes the checks of its
// piece (whose rows they index). Nothing appears under `path` before Commit.
class CompareResultJsonStream {
 public:
  static Result<CompareResultJsonStream> Open(const std::string& path);
  Status Append(const ResultTable& table, const std::vector<P2pColumns>& p2p, const std::vector<ApiCheck>& checks);
  Status Commit() &&;

 private:
  explicit CompareResultJsonStream(AtomicFile file) : file_(std::move(file)) {}
  AtomicFile file_;
  bool empty_ = true;
};

}  // namespace msprobe::compare
