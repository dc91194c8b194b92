#include "first_diff/comm_graph_internal.h"
#include "msprobe/compare/first_diff/comm_args.h"

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

namespace msprobe::compare {
namespace {

CommDirection Opposite(CommDirection d) {
  return d == CommDirection::kSrc ? CommDirection::kDst : d == CommDirection::kDst ? CommDirection::kSrc : CommDirection::kLink;
}

// P2P_API_MAPPING: a send connects to a recv and back.
std::string_view PeerApi(std::string_view api) {
  static const std::pair<std::string_view, std::string_view> kPairs[] = {
      {"send", "recv"}, {"recv", "send"}, {"isend", "irecv"}, {"irecv", "isend"},
      {"send_object_list", "recv_object_list"}, {"recv_object_list", "send_object_list"}};
  for (const auto& [from, to] : kPairs) {
    if (api == from) return to;
  }
  return api;
}

// DIRECTED_API: these never link to a node that names no ranks.
bool IsDirectedApi(std::string_view api) {
  static const std::string_view kDirected[] = {"send", "recv", "isend", "irecv", "broadcast", "scatter",
                                               "gather", "send_object_list", "recv_object_list"};
  return std::find(std::begin(kDirected), std::end(kDirected), api) != std::end(kDirected);
}

struct ComputeOp {
  size_t op;
  int sub_layer;
};

struct Node {
  std::string id;  // "<rank>.<op name>"
  size_t rank_pos = 0, op = 0;
  int rank = 0;
  int layer = 0, sub_layer = 0;
  std::string api;
  CommDirection type = CommDirection::kLink;
  std::vector<ComputeOp> compute_ops;
  std::set<size_t> links, dsts, srcs;
  bool deleted = false;
};

struct Found {
  DiffNodeRef ref;
  int layer, sub_layer;
};

class Graph {
 public:
  Graph(const CommOps& ops, const CommRules& rules) : ops_(ops), rules_(rules), per_rank_(ops.RankCount()) {
    for (size_t pos = 0; pos < ops.RankCount(); ++pos) rank_pos_[ops.Rank(pos)] = pos;
  }

  // _analyze_comm_nodes: returns the rank's first flagged compute op after its last communication op.
  std::optional<size_t> Build(size_t rank_pos, size_t first_comm) {
    std::vector<ComputeOp> compute_ops;
    int sub_layer = 0;
    std::optional<size_t> last;
    for (size_t op = first_comm; op < ops_.OpCount(rank_pos); ++op) {
      if (ops_.IsCommunication(rank_pos, op)) {
        Node node;
        node.rank = ops_.Rank(rank_pos);
        node.id = std::to_string(node.rank) + "." + ops_.Name(rank_pos, op);
        node.rank_pos = rank_pos;
        node.op = op;
        node.sub_layer = sub_layer;
        node.api = CommApiOf(ops_.Name(rank_pos, op));
        node.type = ops_.Direction(rank_pos, op);
        node.compute_ops = std::move(compute_ops);
        compute_ops.clear();
        if (last) node.layer = nodes_[*last].layer + 1;
        last = nodes_.size();
        per_rank_[rank_pos].push_back(nodes_.size());
        nodes_.push_back(std::move(node));
        sub_layer = 0;
      } else if (!ops_.IsIgnored(rank_pos, op)) {
        if (ops_.Flagged(rank_pos, op)) compute_ops.push_back({op, sub_layer});
        ++sub_layer;
      }
    }
    if (compute_ops.empty()) return std::nullopt;
    return compute_ops.front().op;
  }

  // _connect_comm_nodes: every rank but the last looks for its partners in the ranks after it.
  void Connect() {
    std::set<int> searched;
    for (size_t pos = 0; pos + 1 < ops_.RankCount(); ++pos) {
      searched.insert(ops_.Rank(pos));
      std::vector<bool> seen(nodes_.size(), false);
      // Per rank, where its scan may start: nodes before it are all seen already. Partners are
      // mostly found in call order, so this keeps msprobe's scan from the front linear overall.
      std::vector<size_t> first_unseen(ops_.RankCount(), 0);
      std::optional<size_t> last;
      for (size_t idx : per_rank_[pos]) {
        Node& cur = nodes_[idx];
        if (rules_.relayer_on_connect && last && nodes_[*last].layer >= cur.layer) cur.layer = nodes_[*last].layer + 1;
        std::vector<int> ranks = ops_.Peers(cur.rank_pos, cur.op);
        if (ranks.empty()) {
          for (size_t p = 0; p < ops_.RankCount(); ++p) ranks.push_back(ops_.Rank(p));
        }
        last = idx;
        FindConnection(ranks, idx, searched, &seen, &first_unseen);
      }
    }
  }

  // _pruning: a node that is not kept and follows no flagged compute op goes.
  void Prune() {
    for (std::vector<size_t>& list : per_rank_) {
      std::vector<size_t> kept;
      for (size_t idx : list) {
        Node& node = nodes_[idx];
        if (ops_.KeptByPruning(node.rank_pos, node.op) || !node.compute_ops.empty()) {
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

  // The search: take the next node of every rank in layer order, gather the connected groups they
  // belong to, and stop at the first round where a group holds a flagged op.
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
        if (groups.empty() || in_groups.count(*node) == (rules_.new_group_only_if_grouped ? 1U : 0U)) {
          groups.push_back(Members(*node));
          in_groups.insert(groups.back().begin(), groups.back().end());
        }
      }
      std::vector<Found> found;
      for (const std::vector<size_t>& group : groups) {
        seen.insert(group.begin(), group.end());
        CollectFlagged(group, &found);
      }
      if (!found.empty()) return Winners(found);
    }
  }

 private:
  // analyze_diff_in_group / analyze_anomaly_in_group: the flagged compute ops before the group's
  // nodes (all of them, or only src/link nodes whose inputs are flagged), then the flagged nodes.
  void CollectFlagged(const std::vector<size_t>& group, std::vector<Found>* found) const {
    for (size_t idx : group) {
      const Node& node = nodes_[idx];
      if (rules_.compute_ops_of_flagged_inputs_only &&
          (node.type == CommDirection::kDst || !ops_.InputsFlagged(node.rank_pos, node.op))) {
        continue;
      }
      for (const ComputeOp& op : node.compute_ops) found->push_back({{node.rank_pos, op.op}, node.layer, op.sub_layer});
    }
    for (size_t idx : group) {
      const Node& node = nodes_[idx];
      if (ops_.Flagged(node.rank_pos, node.op)) found->push_back({{node.rank_pos, node.op}, node.layer, node.sub_layer});
    }
  }

  std::vector<DiffNodeRef> Winners(const std::vector<Found>& found) const {
    const auto key = [](const Found& f) { return std::pair(f.layer, f.sub_layer); };
    const Found& first = *std::min_element(found.begin(), found.end(),
                                           [&](const Found& a, const Found& b) { return key(a) < key(b); });
    if (rules_.first_winner_only) return {first.ref};
    std::vector<DiffNodeRef> winners;
    for (const Found& f : found) {
      if (key(f) == key(first)) winners.push_back(f.ref);
    }
    return winners;
  }

  void FindConnection(const std::vector<int>& ranks, size_t cur_idx, const std::set<int>& searched,
                      std::vector<bool>* seen, std::vector<size_t>* first_unseen) {
    const Node& cur = nodes_[cur_idx];
    const std::string api(PeerApi(cur.api));
    const CommDirection type = Opposite(cur.type);
    for (int connected_rank : ranks) {
      if (searched.count(connected_rank)) continue;
      const auto pos = rank_pos_.find(connected_rank);
      if (pos == rank_pos_.end()) continue;  // a rank that was not read
      const std::string prefix = std::to_string(connected_rank) + ".Distributed." + api;
      const std::vector<size_t>& candidates = per_rank_[pos->second];
      size_t& from = (*first_unseen)[pos->second];
      while (from < candidates.size() && (*seen)[candidates[from]]) ++from;
      for (size_t k = from; k < candidates.size(); ++k) {
        const size_t idx = candidates[k];
        const Node& search = nodes_[idx];
        const bool same_api = rules_.exact_api ? search.api == api : search.id.compare(0, prefix.size(), prefix) == 0;
        if ((*seen)[idx] || !same_api || search.type != type) continue;
        const std::vector<int> search_ranks = ops_.Peers(search.rank_pos, search.op);
        const bool names_cur = std::find(search_ranks.begin(), search_ranks.end(), cur.rank) != search_ranks.end();
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
    if (search.type == CommDirection::kDst) {  // cur sends to search
      cur.dsts.insert(search_idx);
      search.srcs.insert(cur_idx);
    } else if (search.type == CommDirection::kSrc) {  // search sends to cur
      search.dsts.insert(cur_idx);
      cur.srcs.insert(search_idx);
    } else {
      cur.links.insert(search_idx);
      search.links.insert(cur_idx);
    }
    search.layer = cur.layer;
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

  const CommOps& ops_;
  const CommRules& rules_;
  std::vector<Node> nodes_;
  std::vector<std::vector<size_t>> per_rank_;  // live node indices per rank, in call order
  std::unordered_map<int, size_t> rank_pos_;
};

}  // namespace

CommRules DiffAnalyzeRules() {
  return {.skip_ignored_before_comm = true, .relayer_on_connect = true, .exact_api = false,
          .new_group_only_if_grouped = false, .compute_ops_of_flagged_inputs_only = false, .first_winner_only = false};
}

CommRules OverflowCheckRules() {
  return {.skip_ignored_before_comm = false, .relayer_on_connect = false, .exact_api = true,
          .new_group_only_if_grouped = true, .compute_ops_of_flagged_inputs_only = true, .first_winner_only = true};
}

FirstDiff SearchFirstFlagged(const CommOps& ops, const CommRules& rules) {
  // Before communication: per rank, the first flagged op ahead of its first communication op.
  FirstDiff result;
  std::vector<std::optional<size_t>> first_comm(ops.RankCount());
  for (size_t pos = 0; pos < ops.RankCount(); ++pos) {
    for (size_t op = 0; op < ops.OpCount(pos); ++op) {
      if (rules.skip_ignored_before_comm && ops.IsIgnored(pos, op)) continue;
      if (ops.IsCommunication(pos, op)) {
        first_comm[pos] = op;
        break;
      }
      if (ops.Flagged(pos, op)) {
        result.nodes.push_back({pos, op});
        break;
      }
    }
  }
  if (!result.nodes.empty()) {
    result.stage = DiffStage::kBeforeCommunication;
    return result;
  }
  Graph graph(ops, rules);
  std::vector<DiffNodeRef> after;
  for (size_t pos = 0; pos < ops.RankCount(); ++pos) {
    if (!first_comm[pos]) continue;
    if (const std::optional<size_t> op = graph.Build(pos, *first_comm[pos])) after.push_back({pos, *op});
  }
  graph.Connect();
  graph.Prune();
  if (std::vector<DiffNodeRef> during = graph.Search(); !during.empty()) {
    return {DiffStage::kDuringCommunication, std::move(during)};
  }
  if (!after.empty()) return {DiffStage::kAfterCommunication, std::move(after)};
  return result;
}

}  // namespace msprobe::compare
