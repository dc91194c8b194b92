// msprobe's -da first-diff analysis across ranks (docs/compare.md §8.2-§8.3, its DiffAnalyzer): from the
// per-API diff checks of every rank, find the first differing node before communication, through
// the communication graph of all ranks, or after communication, and write diff_analyze_{ns}.json.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "msprobe/compare/first_diff/api_diff_check.h"
#include "msprobe/compare/table/cell.h"
#include "msprobe/compare/table/result_table.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

// The P2POp columns of one row: str(op) and str(peer) of a torch.distributed.P2POp argument, "None"
// otherwise.
struct P2pColumns {
  std::string target_op = "None", golden_op = "None", target_peer = "None", golden_peer = "None";
};
// The columns in a message between processes (coding.h).
void PutP2pColumns(std::string* dst, const P2pColumns& p2p);
[[nodiscard]] bool GetP2pColumns(Decoder* in, P2pColumns* p2p);

// One input or output row of an API as the analysis keeps it: its target statistics ("NPU max", "NPU
// min", "NPU mean", "NPU l2norm") or "NPU MD5", then "NPU P2POp peer".
struct DiffIo {
  std::string name;
  std::vector<std::pair<std::string, Cell>> metrics;
  const Cell* Metric(std::string_view key) const;
};

// One API of one rank (a key of its compare_result json). Inputs are kept for communication and
// differing APIs, outputs and the stack for differing ones only: nothing else is ever reported.
struct DiffOp {
  std::string name;
  bool is_diff = false;
  std::vector<DiffIo> inputs, outputs;
  std::optional<std::vector<std::string>> stack;  // null in the output when there is none
  size_t row = 0;                                 // ours: the table row to point at (first differing output)
};

struct RankDiffs {
  int rank = 0;
  std::vector<DiffOp> ops;  // in execution order
};
// A rank's ops in a message between processes (coding.h), as FindFirstDiff reads them: communication
// and differing ops whole; the other ops it counts (as compute sub-layers between those) a byte each,
// coming back unnamed; the ops it ignores not at all. A rank of 30,000 APIs then sends a few hundred
// ops and 30 KB.
void PutRankDiffs(std::string* dst, const RankDiffs& rank);
[[nodiscard]] bool GetRankDiffs(Decoder* in, RankDiffs* rank);

// The ops of one rank's table, from CheckApis(table) and the rows' P2POp columns.
RankDiffs CollectRankDiffs(int rank, const ResultTable& table, const std::vector<ApiCheck>& checks,
                           const std::vector<P2pColumns>& p2p);

// Communication ops start with Distributed (or MindSpore's prefixes) and name a collective or p2p
// call; Torch.empty, Torch.fill and Tensor.__setitem__ are ignored by the analysis.
bool IsCommunicationOp(std::string_view op_name);
bool IsIgnoredOp(std::string_view op_name);

struct DiffNodeRef {
  size_t rank_pos = 0;  // index into the RankDiffs vector
  size_t op = 0;        // index into its ops
};

enum class DiffStage { kNone, kBeforeCommunication, kDuringCommunication, kAfterCommunication };
const char* DiffStageName(DiffStage stage);

struct FirstDiff {
  DiffStage stage = DiffStage::kNone;
  std::vector<DiffNodeRef> nodes;
};

// The three searches in msprobe's order; the first that finds anything wins. `ranks` is sorted by
// rank. Within a communication group msprobe's order follows Python set iteration (not stable
// between runs); ours is by rank, then execution order.
FirstDiff FindFirstDiff(const std::vector<RankDiffs>& ranks);

// diff_analyze json (indent 2): {"rank_<r>": [{"op_name", "data_info": {"input", "output"},
// "stack_info"}, ...], ...}, written atomically.
Status WriteDiffAnalyzeJson(const std::string& path, const std::vector<RankDiffs>& ranks, const FirstDiff& diff);

}  // namespace msprobe::compare
