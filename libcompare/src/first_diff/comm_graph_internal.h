// The communication graph both of msprobe's cross-rank searches build (docs/compare.md §8.2 for -da,
// docs/overflow_check.md for overflow_check): each rank's communication ops from its first one on
// become nodes chained in call order, carrying the flagged compute ops that ran before them; nodes of
// different ranks are linked by API, direction (src/dst/link) and the ranks they name; nodes with
// nothing wrong are pruned; connected groups are searched in layer order and the flagged ops with the
// smallest (layer, sub_layer) win. What "flagged" means, and a few rules, differ between the two.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "msprobe/compare/first_diff/diff_analyze.h"

namespace msprobe::compare {

enum class CommDirection { kSrc, kDst, kLink };

// One analysis's view of every rank's ops, in execution order, as the search reads them.
class CommOps {
 public:
  virtual ~CommOps() = default;
  virtual size_t RankCount() const = 0;
  virtual int Rank(size_t rank_pos) const = 0;
  virtual size_t OpCount(size_t rank_pos) const = 0;
  virtual const std::string& Name(size_t rank_pos, size_t op) const = 0;
  virtual bool IsCommunication(size_t rank_pos, size_t op) const = 0;
  virtual bool IsIgnored(size_t rank_pos, size_t op) const = 0;
  // A compute op to report (it differs, it overflows), or a communication op that is itself one.
  virtual bool Flagged(size_t rank_pos, size_t op) const = 0;
  // Communication ops only: their direction towards the ranks they name, those ranks (ascending;
  // empty when none is named), whether pruning keeps the node, and whether its own inputs are
  // flagged (overflow_check's group rule).
  virtual CommDirection Direction(size_t rank_pos, size_t op) const = 0;
  virtual std::vector<int> Peers(size_t rank_pos, size_t op) const = 0;
  virtual bool KeptByPruning(size_t rank_pos, size_t op) const = 0;
  virtual bool InputsFlagged(size_t rank_pos, size_t op) const = 0;
};

// Where msprobe's two analyses differ (find_first for -da, overflow_check).
struct CommRules {
  bool skip_ignored_before_comm;  // -da: ignored ops are passed over before the first communication
  bool relayer_on_connect;        // -da: a node not after its predecessor's layer moves after it
  bool exact_api;                 // overflow: partners by API name (an index), -da: by id prefix
  // msprobe's round of the search starts a new group for the first node and then for each node
  // not yet in a group (-da), or, overflow_check's quirk, only for one already in a group: the
  // round's other nodes are lost.
  bool new_group_only_if_grouped;
  // The compute ops a group reports: those of every node (-da), or only of its src/link nodes whose
  // own inputs are flagged (overflow).
  bool compute_ops_of_flagged_inputs_only;
  bool first_winner_only;  // overflow: min() keeps one node; -da keeps every node of the smallest key
};
CommRules DiffAnalyzeRules();
CommRules OverflowCheckRules();

// The three searches in msprobe's order, the first that finds anything winning: per rank, the first
// flagged op before its first communication op; through the communication graph; per rank, the first
// flagged compute op after its last communication op. Ranks in the order of `ops`.
// (diff_analyze.h's FirstDiff: the stage, the ops found.)
FirstDiff SearchFirstFlagged(const CommOps& ops, const CommRules& rules);

}  // namespace msprobe::compare
