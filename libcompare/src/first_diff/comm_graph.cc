#include "first_diff/comm_graph_internal.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "msprobe/dump/text/python_parse.h"

namespace msprobe::compare {
namespace {

enum class Direction { kSrc, kDst, kLink };

Direction Opposite(Direction d) {
  return d == Direction::kSrc ? Direction::kDst : d == Direction::kDst ? Direction::kSrc : Direction::kLink;
}

// DiffAnalyseConst.P2P_API_MAPPING: a send connects to a recv and back.
std::string_view PeerApi(std::string_view api) {
  static const std::pair<std::string_view, std::string_view> kPairs[] = {
      {"send", "recv"}, {"recv", "send"}, {"isend", "irecv"}, {"irecv", "isend"},
      {"send_object_list", "recv_object_list"}, {"recv_object_list", "send_object_list"}};
  for (const auto& [from, to] : kPairs) {
    if (api == from) return to;
  }
  return api;
}

// DiffAnalyseConst.DIRECTED_API: these never link to a node that names no ranks.
bool IsDirectedApi(std::string_view api) {
  static const std::string_view kDirected[] = {"send", "recv", "isend", "irecv", "broadcast", "scatter",
                                               "gather", "send_object_list", "recv_object_list"};
  return std::find(std::begin(kDirected), std::end(kDirected), api) != std::end(kDirected);
}

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

struct ComputeOp {
  size_t op;
  int sub_layer;
};

struct Node {
  std::string id;  // "<rank>.<op name>"
  size_t rank_pos = 0, op = 0;
  int rank = 0;
  bool is_diff = false;
  int layer = 0, sub_layer = 0;
  std::string api;  // op_name.split('.')[1]
  Direction type = Direction::kLink;
  std::vector<ComputeOp> compute_ops;
  std::set<size_t> links, dsts, srcs;
  bool deleted = false;
};

struct Connection {
  std::vector<int> ranks;  // ascending, as Python iterates a set of small ints
  std::string api;         // "Distributed.<peer api>"
  Direction type;
};

class Graph {
 public:
  explicit Graph(const std::vector<RankDiffs>& ranks) : ranks_(ranks), per_rank_(ranks.size()) {
    for (size_t pos = 0; pos < ranks.size(); ++pos) rank_pos_[ranks[pos].rank] = pos;
  }

  // _analyze_comm_nodes: returns the rank's first differing compute op after its last communication op.
  std::optional<size_t> Build(size_t rank_pos, size_t first_comm) {
    const RankDiffs& rank = ranks_[rank_pos];
    std::vector<ComputeOp> compute_ops;
    int sub_layer = 0;
    std::optional<size_t> last;
    for (size_t op_idx = first_comm; op_idx < rank.ops.size(); ++op_idx) {
      const DiffOp& op = rank.ops[op_idx];
      if (IsCommunicationOp(op.name)) {
        Node node;
        node.id = std::to_string(rank.rank) + "." + op.name;
        node.rank_pos = rank_pos;
        node.op = op_idx;
        node.rank = rank.rank;
        node.is_diff = op.is_diff;
        node.sub_layer = sub_layer;
        node.api = ApiOf(op.name);
        node.type = ResolveType(op, rank.rank);
        node.compute_ops = std::move(compute_ops);
        compute_ops.clear();
        if (last) node.layer = nodes_[*last].layer + 1;
        last = nodes_.size();
        per_rank_[rank_pos].push_back(nodes_.size());
        nodes_.push_back(std::move(node));
        sub_layer = 0;
      } else if (!IsIgnoredOp(op.name)) {
        if (op.is_diff) compute_ops.push_back({op_idx, sub_layer});
        ++sub_layer;
      }
    }
    if (compute_ops.empty()) return std::nullopt;
    return compute_ops.front().op;
  }

  // _connect_comm_nodes: every rank but the last looks for its partners in the ranks after it.
  void Connect() {
    std::set<int> searched;
    for (size_t pos = 0; pos + 1 < ranks_.size(); ++pos) {
      searched.insert(ranks_[pos].rank);
      std::vector<bool> seen(nodes_.size(), false);
      // Per rank, where its scan may start: nodes before it are all seen already. Partners are
      // mostly found in call order, so this keeps msprobe's scan from the front linear overall.
      std::vector<size_t> first_unseen(ranks_.size(), 0);
      std::optional<size_t> last;
      for (size_t idx : per_rank_[pos]) {
        Node& cur = nodes_[idx];
        if (last && nodes_[*last].layer >= cur.layer) cur.layer = nodes_[*last].layer + 1;
        Connection conn = FindConnected(idx);
        if (conn.ranks.empty()) {
          for (const RankDiffs& r : ranks_) conn.ranks.push_back(r.rank);
        }
        last = idx;
        FindConnection(conn, idx, searched, &seen, &first_unseen);
      }
    }
  }

  // _pruning: a node that neither differs nor follows differing compute ops goes.
  void Prune() {
    for (std::vector<size_t>& list : per_rank_) {
      std::vector<size_t> kept;
      for (size_t idx : list) {
        Node& node = nodes_[idx];
        if (node.is_diff || !node.compute_ops.empty()) {
          kept.push_back(idx);
          continue;
        }
        for (size_t other : node.links) nodes_[other].links.erase(idx);
        for (size_t other : node.dsts) nodes_[other].srcs.erase(idx);
        for (size_t other : node.srcs) nodes_[other].dsts.erase(idx);
        node.deleted = true;
      }
      list = std::move(kept);
    }
  }

  // _search_first_diff: take the next node of every rank in layer order, gather the connected
  // groups they belong to, and stop at the first round where a group holds a differing node.
  std::vector<DiffNodeRef> Search() {
    std::vector<std::vector<size_t>> queues = per_rank_;
    for (std::vector<size_t>& queue : queues) {
      std::stable_sort(queue.begin(), queue.end(), [&](size_t a, size_t b) { return nodes_[a].layer < nodes_[b].layer; });
    }
    std::vector<size_t> heads(queues.size(), 0);
    std::set<size_t> seen;
    while (true) {
      bool any = false;
      for (size_t q = 0; q < queues.size(); ++q) any = any || heads[q] < queues[q].size();
      if (!any) return {};
      std::vector<std::vector<size_t>> groups;
      std::set<size_t> in_groups;
      for (size_t q = 0; q < queues.size(); ++q) {
        std::optional<size_t> node;
        while (heads[q] < queues[q].size()) {
          const size_t idx = queues[q][heads[q]++];
          if (!seen.count(idx)) {
            node = idx;
            break;
          }
        }
        if (!node) continue;
        if (groups.empty() || !in_groups.count(*node)) {
          groups.push_back(Members(*node));
          in_groups.insert(groups.back().begin(), groups.back().end());
        }
      }
      struct Found {
        DiffNodeRef ref;
        int layer, sub_layer;
      };
      std::vector<Found> found;
      for (const std::vector<size_t>& group : groups) {
        seen.insert(group.begin(), group.end());
        // analyze_diff_in_group: the differing compute ops before each node, then the nodes that differ.
        for (size_t idx : group) {
          for (const ComputeOp& op : nodes_[idx].compute_ops) {
            found.push_back({{nodes_[idx].rank_pos, op.op}, nodes_[idx].layer, op.sub_layer});
          }
        }
        for (size_t idx : group) {
          if (nodes_[idx].is_diff) found.push_back({{nodes_[idx].rank_pos, nodes_[idx].op}, nodes_[idx].layer, nodes_[idx].sub_layer});
        }
      }
      if (found.empty()) continue;
      const auto key = [](const Found& f) { return std::pair(f.layer, f.sub_layer); };
      const auto best = key(*std::min_element(found.begin(), found.end(),
                                              [&](const Found& a, const Found& b) { return key(a) < key(b); }));
      std::vector<DiffNodeRef> winners;
      for (const Found& f : found) {
        if (key(f) == best) winners.push_back(f.ref);
      }
      return winners;
    }
  }

 private:
  static std::string ApiOf(const std::string& op_name) {
    const size_t first = op_name.find('.');
    const size_t second = op_name.find('.', first + 1);
    return op_name.substr(first + 1, second - first - 1);
  }

  // CommunicationNode._resolve_type: a src/dst input naming this rank makes it that end of the
  // link, naming another rank the other end; without one it is an undirected link.
  static Direction ResolveType(const DiffOp& op, int rank) {
    for (const auto& [prefix, type] : {std::pair{"src", Direction::kSrc}, std::pair{"dst", Direction::kDst}}) {
      for (const DiffIo& io : op.inputs) {
        if (io.name.find(prefix) != std::string::npos) return EqualsRank(RankValue(io), rank) ? type : Opposite(type);
      }
    }
    return Direction::kLink;
  }

  // find_connected_nodes: the ranks a node talks to (src/dst inputs, a group list, P2POp peers).
  Connection FindConnected(size_t idx) const {
    const Node& node = nodes_[idx];
    const DiffOp& op = ranks_[node.rank_pos].ops[node.op];
    std::set<int> ranks;
    for (const DiffIo& io : op.inputs) {
      if (io.name.find("dst") != std::string::npos || io.name.find("src") != std::string::npos) {
        // msprobe drops rank 0 here (`if rank_val:`); so do we.
        if (const std::optional<int64_t> v = IntOf(RankValue(io)); v && *v != 0) ranks.insert(static_cast<int>(*v));
      } else if (io.name.size() >= 6 && io.name.compare(io.name.size() - 6, 6, ".group") == 0) {
        const Cell* value = RankValue(io);
        if (value && value->is_text() && value->text().size() >= 2 && value->text().front() == '[' &&
            value->text().back() == ']') {
          std::string_view list = value->text();
          list = list.substr(1, list.size() - 2);
          for (size_t start = 0; start <= list.size();) {
            const size_t comma = std::min(list.find(',', start), list.size());
            const Cell part = Cell::Text(std::string(list.substr(start, comma - start)));
            if (const std::optional<int64_t> v = IntOf(&part)) ranks.insert(static_cast<int>(*v));
            start = comma + 1;
          }
        }
      } else if (const Cell* peer = io.Metric("NPU P2POp peer"); peer && !peer->IsText("None")) {
        // msprobe keeps the peer as text, which then never equals a rank; we read it as the rank it names.
        if (const std::optional<int64_t> v = IntOf(peer)) ranks.insert(static_cast<int>(*v));
      }
    }
    return {std::vector<int>(ranks.begin(), ranks.end()), "Distributed." + std::string(PeerApi(node.api)),
            Opposite(node.type)};
  }

  void FindConnection(const Connection& conn, size_t cur_idx, const std::set<int>& searched, std::vector<bool>* seen,
                      std::vector<size_t>* first_unseen) {
    for (int connected_rank : conn.ranks) {
      if (searched.count(connected_rank)) continue;
      const auto pos = rank_pos_.find(connected_rank);
      if (pos == rank_pos_.end()) continue;  // a rank that was not compared
      const std::string prefix = std::to_string(connected_rank) + "." + conn.api;
      const std::vector<size_t>& candidates = per_rank_[pos->second];
      size_t& from = (*first_unseen)[pos->second];
      while (from < candidates.size() && (*seen)[candidates[from]]) ++from;
      for (size_t k = from; k < candidates.size(); ++k) {
        const size_t idx = candidates[k];
        const Node& search = nodes_[idx];
        if ((*seen)[idx] || search.id.compare(0, prefix.size(), prefix) != 0 || search.type != conn.type) continue;
        const std::vector<int> search_ranks = FindConnected(idx).ranks;
        const bool names_cur = std::find(search_ranks.begin(), search_ranks.end(), nodes_[cur_idx].rank) != search_ranks.end();
        if ((search_ranks.empty() && !IsDirectedApi(search.api)) || names_cur) {
          Link(cur_idx, idx, seen);
          break;
        }
      }
    }
  }

  void Link(size_t cur_idx, size_t search_idx, std::vector<bool>* seen) {
    (*seen)[search_idx] = true;
    Node& cur = nodes_[cur_idx];
    Node& search = nodes_[search_idx];
    if (search.type == Direction::kDst) {  // cur sends to search
      cur.dsts.insert(search_idx);
      search.srcs.insert(cur_idx);
      search.layer = cur.layer;
    } else if (search.type == Direction::kSrc) {  // search sends to cur
      search.layer = cur.layer;
      search.dsts.insert(cur_idx);
      cur.srcs.insert(search_idx);
    } else {
      cur.links.insert(search_idx);
      search.links.insert(cur_idx);
      search.layer = cur.layer;
    }
  }

  // find_all_members: everything reachable over links, srcs and dsts, by rank then call order.
  std::vector<size_t> Members(size_t start) const {
    std::set<size_t> members = {start};
    std::vector<size_t> todo = {start};
    while (!todo.empty()) {
      const Node& node = nodes_[todo.back()];
      todo.pop_back();
      for (const std::set<size_t>* edges : {&node.links, &node.srcs, &node.dsts}) {
        for (size_t other : *edges) {
          if (!nodes_[other].deleted && members.insert(other).second) todo.push_back(other);
        }
      }
    }
    return {members.begin(), members.end()};  // node indices grow by rank, then call order
  }

  const std::vector<RankDiffs>& ranks_;
  std::vector<Node> nodes_;
  std::vector<std::vector<size_t>> per_rank_;  // live node indices per rank, in call order
  std::unordered_map<int, size_t> rank_pos_;
};

}  // namespace

CommunicationSearch SearchCommunication(const std::vector<RankDiffs>& ranks,
                                        const std::vector<std::optional<size_t>>& first_comm) {
  Graph graph(ranks);
  CommunicationSearch result;
  for (size_t pos = 0; pos < ranks.size(); ++pos) {
    if (!first_comm[pos]) continue;
    if (const std::optional<size_t> after = graph.Build(pos, *first_comm[pos])) result.after.push_back({pos, *after});
  }
  graph.Connect();
  graph.Prune();
  result.during = graph.Search();
  return result;
}

}  // namespace msprobe::compare
