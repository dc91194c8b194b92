// What msprobe's overflow_check reads of a rank's dump.json (docs/compare.md §11): per entry, whether
// it is a communication op and whether its output overflows while its inputs do not, and for
// communication ops their direction and the ranks they name; and the view of them the communication
// graph searches (first_diff/comm_graph_internal.h).
#pragma once

#include <string>
#include <vector>

#include "first_diff/comm_graph_internal.h"
#include "msprobe/dump/text/json_file.h"
#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

struct OverflowOp {
  std::string name;
  bool communication = false, ignored = false;
  bool anomaly = false;          // DataNode.is_anomaly: not ignored, inputs clean, an output overflows
  bool inputs_overflow = false;  // input_args or input_kwargs overflow (communication ops)
  bool any_overflow = false;     // inputs_overflow or an output overflows (communication ops)
  CommDirection direction = CommDirection::kLink;
  std::vector<int> peers;        // ascending
};

struct OverflowRank {
  int rank = 0;
  std::string dir;        // rank{N}/ or proc*/ holding dump.json, construct.json, stack.json
  std::string framework;  // the dump's "framework" member ("" when absent or not a string)
  bool has_data = false;  // "data" is a non-empty object
  std::vector<OverflowOp> ops;
};

// check_item_anomaly: one of the top-level items of a list (or values of an object) is an object
// whose Max or Min reads, as str().lower(), nan, inf or -inf.
bool ItemsOverflow(const JsonValue* param);

// One entry as the analysis sees it. InvalidInput for a communication op whose name has fewer than
// four dotted parts (msprobe's "invalid op_name").
Result<OverflowOp> ReadOverflowOp(std::string_view key, const JsonValue& entry, int rank, const std::string& source);

// The rank's dump.json, streamed.
Result<OverflowRank> ReadOverflowRank(int rank, const std::string& dir);

// The graph's view of the ranks read: compute ops flagged when they overflow; communication ops kept
// when anything of theirs overflows.
class OverflowCommOps : public CommOps {
 public:
  explicit OverflowCommOps(const std::vector<OverflowRank>& ranks) : ranks_(ranks) {}
  size_t RankCount() const override { return ranks_.size(); }
  int Rank(size_t pos) const override { return ranks_[pos].rank; }
  size_t OpCount(size_t pos) const override { return ranks_[pos].ops.size(); }
  const std::string& Name(size_t pos, size_t op) const override { return At(pos, op).name; }
  bool IsCommunication(size_t pos, size_t op) const override { return At(pos, op).communication; }
  bool IsIgnored(size_t pos, size_t op) const override { return At(pos, op).ignored; }
  bool Flagged(size_t pos, size_t op) const override { return At(pos, op).anomaly; }
  CommDirection Direction(size_t pos, size_t op) const override { return At(pos, op).direction; }
  std::vector<int> Peers(size_t pos, size_t op) const override { return At(pos, op).peers; }
  bool KeptByPruning(size_t pos, size_t op) const override { return At(pos, op).any_overflow; }
  bool InputsFlagged(size_t pos, size_t op) const override { return At(pos, op).inputs_overflow; }

 private:
  const OverflowOp& At(size_t pos, size_t op) const { return ranks_[pos].ops[op]; }
  const std::vector<OverflowRank>& ranks_;
};

}  // namespace msprobe::compare
