#include "msprobe/compare/first_diff/diff_analyze.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <set>
#include <string_view>

#include "first_diff/comm_graph_internal.h"
#include "msprobe/dump/text/python_json.h"
#include "msprobe/dump/text/python_parse.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/util/coding.h"

namespace msprobe::compare {
namespace {

// Const.DISTRIBUTED, MINT_DIST_API_TYPE_PREFIX and MS_API_TYPE_COM (docs/compare.md §8.2).
constexpr std::array<std::string_view, 3> kCommunicationPrefixes = {"Distributed", "MintDistributed",
                                                                    "communication.comm_func"};
// DiffAnalyseConst.COMMUNICATION_KEYWORDS: a name holding any of these is a communication op.
constexpr std::array<std::string_view, 19> kCommunicationKeywords = {
    "send", "recv", "broadcast", "all_reduce", "reduce", "all_gather", "gather", "isend", "irecv", "scatter",
    "reduce_scatter", "_reduce_scatter_base", "_all_gather_base", "all_to_all_single", "all_to_all",
    "all_gather_into_tensor", "reduce_scatter_tensor", "send_object_list", "recv_object_list"};
constexpr std::array<std::string_view, 3> kIgnoredOps = {"Torch.empty", "Torch.fill", "Tensor.__setitem__"};
constexpr std::array<const char*, 4> kStatNames = {"NPU max", "NPU min", "NPU mean", "NPU l2norm"};
constexpr int kIndent = 2;  // msprobe: save_json(result_file, result_content, 2)

// A Python dict keyed by row name: a name seen again keeps its place and takes the new value.
void PutIo(std::vector<DiffIo>* ios, DiffIo io) {
  for (DiffIo& existing : *ios) {
    if (existing.name == io.name) {
      existing = std::move(io);
      return;
    }
  }
  ios->push_back(std::move(io));
}

DiffIo MakeIo(const ResultTable& table, const ResultRow& row, const P2pColumns& p2p) {
  DiffIo io{row.target_name, {}};
  if (table.mode == CompareMode::kMd5) {
    io.metrics.emplace_back("NPU MD5", row.metrics.empty() ? Cell::NA() : row.metrics[0]);
  } else {
    for (size_t k = 0; k < kStatNames.size(); ++k) io.metrics.emplace_back(kStatNames[k], row.target_stats[k]);
  }
  io.metrics.emplace_back("NPU P2POp peer", Cell::Text(p2p.target_peer));
  return io;
}

void WriteIos(PyJsonWriter* w, const std::vector<DiffIo>& ios) {
  w->BeginObject();
  for (const DiffIo& io : ios) {
    w->Key(io.name);
    w->BeginObject();
    for (const auto& [key, value] : io.metrics) {
      w->Key(key);
      WritePyJson(value, w);
    }
    w->EndObject();
  }
  w->EndObject();
}

}  // namespace

const Cell* DiffIo::Metric(std::string_view key) const {
  for (const auto& [name, value] : metrics) {
    if (name == key) return &value;
  }
  return nullptr;
}

bool IsCommunicationOp(std::string_view op_name) {
  const bool prefixed = std::any_of(kCommunicationPrefixes.begin(), kCommunicationPrefixes.end(),
                                    [&](std::string_view p) { return op_name.substr(0, p.size()) == p; });
  return prefixed && std::any_of(kCommunicationKeywords.begin(), kCommunicationKeywords.end(),
                                 [&](std::string_view k) { return op_name.find(k) != std::string_view::npos; });
}

bool IsIgnoredOp(std::string_view op_name) {
  return std::any_of(kIgnoredOps.begin(), kIgnoredOps.end(),
                     [&](std::string_view k) { return op_name.find(k) != std::string_view::npos; });
}

RankDiffs CollectRankDiffs(int rank, const ResultTable& table, const std::vector<ApiCheck>& checks,
                           const std::vector<P2pColumns>& p2p) {
  RankDiffs out{rank, {}};
  out.ops.reserve(checks.size());
  for (const ApiCheck& check : checks) {
    DiffOp op;
    op.name = check.api;
    op.is_diff = !check.is_same;
    op.row = check.diff_row.value_or(check.first_row);
    const bool keep_inputs = op.is_diff || IsCommunicationOp(op.name);
    for (size_t row_idx = check.first_row; row_idx < check.end_row && (keep_inputs || op.is_diff); ++row_idx) {
      const ResultRow& row = table.rows[row_idx];
      // DataNode.parse_data: the first row whose stack is not "N/A" gives the node's stack.
      if (op.is_diff && table.with_stack && !op.stack && row.stack_info != "N/A") {
        op.stack = ParsePythonStrList(row.stack_info);
      }
      if (row.state == RowState::kInput) PutIo(&op.inputs, MakeIo(table, row, p2p[row_idx]));
      if (row.state == RowState::kOutput && op.is_diff) PutIo(&op.outputs, MakeIo(table, row, p2p[row_idx]));
    }
    out.ops.push_back(std::move(op));
  }
  return out;
}

const char* DiffStageName(DiffStage stage) {
  switch (stage) {
    case DiffStage::kNone: return "none";
    case DiffStage::kBeforeCommunication: return "before communication";
    case DiffStage::kDuringCommunication: return "during communication";
    case DiffStage::kAfterCommunication: return "after communication";
  }
  return "none";
}

namespace {

// The value msprobe reads from an input: its md5 when the row has one, else its NPU max.
const Cell* RankValue(const DiffIo& io) {
  if (const Cell* md5 = io.Metric("NPU MD5")) return md5;
  return io.Metric("NPU max");
}

// Python int(value) of a number or a decimal text; nullopt where Python would raise (msprobe then
// stops with an exception; we skip the value).
std::optional<int64_t> IntOf(const Cell* cell) {
  if (cell == nullptr) return std::nullopt;
  if (cell->kind() == Cell::Kind::kInt || cell->kind() == Cell::Kind::kBool) return cell->integer();
  if (cell->kind() == Cell::Kind::kFloat) {
    if (!std::isfinite(cell->number())) return std::nullopt;
    return static_cast<int64_t>(std::trunc(cell->number()));
  }
  return PythonInt(cell->text());
}

bool EqualsRank(const Cell* cell, int rank) {
  return cell != nullptr && (cell->is_number() || cell->kind() == Cell::Kind::kBool) && cell->number() == rank;
}

// -da's view of the ranks' compare results: a compute op is flagged when it differs, and so is a
// communication op, which pruning then keeps.
class DiffCommOps : public CommOps {
 public:
  explicit DiffCommOps(const std::vector<RankDiffs>& ranks) : ranks_(ranks) {}
  size_t RankCount() const override { return ranks_.size(); }
  int Rank(size_t pos) const override { return ranks_[pos].rank; }
  size_t OpCount(size_t pos) const override { return ranks_[pos].ops.size(); }
  const std::string& Name(size_t pos, size_t op) const override { return ranks_[pos].ops[op].name; }
  bool IsCommunication(size_t pos, size_t op) const override { return IsCommunicationOp(Name(pos, op)); }
  bool IsIgnored(size_t pos, size_t op) const override { return IsIgnoredOp(Name(pos, op)); }
  bool Flagged(size_t pos, size_t op) const override { return ranks_[pos].ops[op].is_diff; }
  bool KeptByPruning(size_t pos, size_t op) const override { return Flagged(pos, op); }
  bool InputsFlagged(size_t pos, size_t op) const override { return Flagged(pos, op); }

  // CommunicationNode._resolve_type: a src/dst input naming this rank makes it that end of the
  // link, naming another rank the other end; without one it is an undirected link.
  CommDirection Direction(size_t pos, size_t op) const override {
    for (const auto& [prefix, type] : {std::pair{"src", CommDirection::kSrc}, std::pair{"dst", CommDirection::kDst}}) {
      for (const DiffIo& io : ranks_[pos].ops[op].inputs) {
        if (io.name.find(prefix) == std::string::npos) continue;
        if (EqualsRank(RankValue(io), ranks_[pos].rank)) return type;
        return type == CommDirection::kSrc ? CommDirection::kDst : CommDirection::kSrc;
      }
    }
    return CommDirection::kLink;
  }

  // find_connected_nodes: the ranks a node talks to (src/dst inputs, a group list, P2POp peers).
  std::vector<int> Peers(size_t pos, size_t op) const override {
    std::set<int> ranks;
    for (const DiffIo& io : ranks_[pos].ops[op].inputs) {
      if (io.name.find("dst") != std::string::npos || io.name.find("src") != std::string::npos) {
        // msprobe drops rank 0 here (`if rank_val:`); so do we.
        if (const std::optional<int64_t> v = IntOf(RankValue(io)); v && *v != 0) ranks.insert(static_cast<int>(*v));
      } else if (io.name.size() >= 6 && io.name.compare(io.name.size() - 6, 6, ".group") == 0) {
        AddGroupRanks(RankValue(io), &ranks);
      } else if (const Cell* peer = io.Metric("NPU P2POp peer"); peer && !peer->IsText("None")) {
        // msprobe keeps the peer as text, which then never equals a rank; we read it as the rank it names.
        if (const std::optional<int64_t> v = IntOf(peer)) ranks.insert(static_cast<int>(*v));
      }
    }
    return {ranks.begin(), ranks.end()};
  }

 private:
  // A group row's value: the text "[0, 1, ...]".
  static void AddGroupRanks(const Cell* value, std::set<int>* ranks) {
    if (!value || !value->is_text() || value->text().size() < 2 || value->text().front() != '[' ||
        value->text().back() != ']') {
      return;
    }
    std::string_view list = value->text();
    list = list.substr(1, list.size() - 2);
    for (size_t start = 0; start <= list.size();) {
      const size_t comma = std::min(list.find(',', start), list.size());
      const Cell part = Cell::Text(std::string(list.substr(start, comma - start)));
      if (const std::optional<int64_t> v = IntOf(&part)) ranks->insert(static_cast<int>(*v));
      start = comma + 1;
    }
  }

  const std::vector<RankDiffs>& ranks_;
};

}  // namespace

FirstDiff FindFirstDiff(const std::vector<RankDiffs>& ranks) {
  return SearchFirstFlagged(DiffCommOps(ranks), DiffAnalyzeRules());
}

Status WriteDiffAnalyzeJson(const std::string& path, const std::vector<RankDiffs>& ranks, const FirstDiff& diff) {
  // defaultdict(list) keyed "rank_<r>" in the order the nodes come.
  std::vector<size_t> rank_order;
  for (const DiffNodeRef& node : diff.nodes) {
    if (std::find(rank_order.begin(), rank_order.end(), node.rank_pos) == rank_order.end()) {
      rank_order.push_back(node.rank_pos);
    }
  }
  PyJsonWriter w(kIndent);
  w.BeginObject();
  for (size_t rank_pos : rank_order) {
    w.Key("rank_" + std::to_string(ranks[rank_pos].rank));
    w.BeginArray();
    for (const DiffNodeRef& node : diff.nodes) {
      if (node.rank_pos != rank_pos) continue;
      const DiffOp& op = ranks[rank_pos].ops[node.op];
      w.BeginObject();
      w.Key("op_name");
      w.String(op.name);
      w.Key("data_info");
      w.BeginObject();
      w.Key("input");
      WriteIos(&w, op.inputs);
      w.Key("output");
      WriteIos(&w, op.outputs);
      w.EndObject();
      w.Key("stack_info");
      if (op.stack) {
        w.StringList(*op.stack);
      } else {
        w.Null();
      }
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
  return WriteFileAtomically(path, std::move(w).Finish());
}

void PutP2pColumns(std::string* dst, const P2pColumns& p) {
  for (const std::string* s : {&p.target_op, &p.golden_op, &p.target_peer, &p.golden_peer}) PutString(dst, *s);
}

bool GetP2pColumns(Decoder* in, P2pColumns* p) {
  return GetString(in, &p->target_op) && GetString(in, &p->golden_op) && GetString(in, &p->target_peer) &&
         GetString(in, &p->golden_peer);
}

namespace {

void PutDiffIo(std::string* dst, const DiffIo& io) {
  PutString(dst, io.name);
  PutVector(dst, io.metrics, [](std::string* dst, const std::pair<std::string, Cell>& metric) {
    PutString(dst, metric.first);
    PutCell(dst, metric.second);
  });
}

bool GetDiffIo(Decoder* in, DiffIo* io) {
  return GetString(in, &io->name) && GetVector(in, &io->metrics, [](Decoder* in, std::pair<std::string, Cell>* metric) {
           return GetString(in, &metric->first) && GetCell(in, &metric->second);
         });
}

void PutStack(std::string* dst, const std::vector<std::string>& stack) { PutVector(dst, stack, PutString); }
bool GetStack(Decoder* in, std::vector<std::string>* stack) { return GetVector(in, stack, GetString); }

void PutDiffOp(std::string* dst, const DiffOp& op) {
  PutString(dst, op.name);
  PutBool(dst, op.is_diff);
  PutVector(dst, op.inputs, PutDiffIo);
  PutVector(dst, op.outputs, PutDiffIo);
  PutOptional(dst, op.stack, PutStack);
  PutVarint64(dst, op.row);
}

bool GetDiffOp(Decoder* in, DiffOp* op) {
  return GetString(in, &op->name) && GetBool(in, &op->is_diff) && GetVector(in, &op->inputs, GetDiffIo) &&
         GetVector(in, &op->outputs, GetDiffIo) && GetOptional(in, &op->stack, GetStack) && GetVarint64(in, &op->row);
}

// Whether FindFirstDiff reads an op whole (else it only counts it).
bool ReadWhole(const DiffOp& op) { return op.is_diff || IsCommunicationOp(op.name); }

}  // namespace

void PutRankDiffs(std::string* dst, const RankDiffs& r) {
  PutSignedVarint32(dst, r.rank);
  PutVarint64(dst, std::count_if(r.ops.begin(), r.ops.end(), [](const DiffOp& op) { return !IsIgnoredOp(op.name); }));
  for (const DiffOp& op : r.ops) {
    if (IsIgnoredOp(op.name)) continue;
    const bool whole = ReadWhole(op);
    PutBool(dst, whole);
    if (whole) PutDiffOp(dst, op);
  }
}

bool GetRankDiffs(Decoder* in, RankDiffs* r) {
  return GetSignedVarint32(in, &r->rank) && GetVector(in, &r->ops, [](Decoder* in, DiffOp* op) {
           bool whole = false;
           return GetBool(in, &whole) && (!whole || GetDiffOp(in, op));
         });
}

}  // namespace msprobe::compare
