#include "msprobe/compare/rows/consistent_match.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "msprobe/dump/text/python_format.h"

namespace msprobe::compare {
namespace {

// One row of the outer merge: a training row, a rollout row, or both.
struct Merged {
  std::optional<size_t> target, golden;
};

// The outer merge on the keys: sorted by key as pandas sorts an outer merge, each key's training rows
// in order, each with the key's rollout rows in order.
std::vector<Merged> OuterMerge(const std::vector<ConsistentKey>& target, const std::vector<ConsistentKey>& golden) {
  std::map<ConsistentKey, std::pair<std::vector<size_t>, std::vector<size_t>>> by_key;
  for (size_t i = 0; i < target.size(); ++i) by_key[target[i]].first.push_back(i);
  for (size_t j = 0; j < golden.size(); ++j) by_key[golden[j]].second.push_back(j);
  std::vector<Merged> merged;
  for (const auto& [key, rows] : by_key) {
    const auto& [target_rows, golden_rows] = rows;
    if (target_rows.empty()) {
      for (size_t j : golden_rows) merged.push_back({std::nullopt, j});
    } else if (golden_rows.empty()) {
      for (size_t i : target_rows) merged.push_back({i, std::nullopt});
    } else {
      for (size_t i : target_rows) {
        for (size_t j : golden_rows) merged.push_back({i, j});
      }
    }
  }
  return merged;
}

// A statistic as msprobe reads it back from str(list): numbers become floats, None and other texts
// stay texts, NaN is "Nan".
Cell ParsedStat(const Cell& c) {
  if (c.kind() == Cell::Kind::kInt) return Cell::Float(static_cast<double>(c.integer()));
  if (c.kind() == Cell::Kind::kBool) return Cell::Text(c.ToPython());
  if (c.kind() == Cell::Kind::kFloat && std::isnan(c.number())) return Cell::Nan();
  return c;
}

// parse_statistic_str over several rows: the largest max, the smallest min (floats only, Python's
// max()/min() with NaN), the means and norms as ';'-joined str() of each.
std::array<Cell, 4> JoinedStats(const std::vector<const OpRow*>& rows) {
  std::array<Cell, 4> out;
  for (int column : {0, 1}) {
    std::optional<double> best;
    for (const OpRow* row : rows) {
      const Cell v = ParsedStat(row->stats[column]);
      const bool number = v.kind() == Cell::Kind::kFloat || v.IsText("Nan");
      if (!number) continue;
      const double x = v.is_text() ? NAN : v.number();
      if (!best || (column == 0 ? x > *best : x < *best)) best = x;
    }
    out[column] = !best ? Cell::None() : std::isnan(*best) ? Cell::Nan() : Cell::Float(*best);
  }
  for (int column : {2, 3}) {
    std::string joined;
    for (const OpRow* row : rows) {
      const Cell v = ParsedStat(row->stats[column]);
      if (!joined.empty()) joined += ';';
      joined += v.IsText("Nan") ? "nan" : v.ToPython();
    }
    out[column] = Cell::Text(std::move(joined));
  }
  return out;
}

std::string Join(const std::vector<const OpRow*>& rows, std::string OpRow::*field, const std::string& separator) {
  std::string joined;
  for (size_t k = 0; k < rows.size(); ++k) {
    if (k > 0) joined += separator;
    joined += rows[k]->*field;
  }
  return joined;
}

// The fields of one side of a result row: its rows joined (the first one's requires_grad and stack),
// or "N/A" throughout when the side has none.
struct SideCells {
  std::string name = "N/A", dtype = "N/A", shape = "N/A", requires_grad = "N/A", data_name = "N/A";
  std::string stack = "N/A", api = "N/A";
  std::optional<RowState> state;
  std::array<Cell, 4> stats = {Cell::NA(), Cell::NA(), Cell::NA(), Cell::NA()};
};

SideCells CellsOf(const std::vector<const OpRow*>& rows, const std::string& name_separator) {
  SideCells s;
  if (rows.empty()) return s;
  const OpRow& first = *rows.front();
  s.name = Join(rows, &OpRow::name, name_separator);
  s.dtype = Join(rows, &OpRow::dtype, ";");
  s.shape = Join(rows, &OpRow::shape, ";");
  s.data_name = Join(rows, &OpRow::data_name, ";");
  s.requires_grad = first.requires_grad.value_or("N/A");
  s.stack = first.stack_info.value_or("N/A");
  s.api = first.api;
  s.state = first.state;
  if (rows.size() == 1) {
    for (int i = 0; i < 4; ++i) s.stats[i] = ParsedStat(first.stats[i]);
  } else {
    s.stats = JoinedStats(rows);
  }
  return s;
}

// One row of the result before ordering: each side's rows and its position in its dump (the first
// joined row's), none for a missing side.
struct Joined {
  std::vector<const OpRow*> target, golden;
  std::optional<size_t> target_pos, golden_pos;
};

// Step 2 of consistent_match: the merged rows that meet one row of the grouping side (fsdp: the
// rollout's, megatron: the training's) joined per that row's name, in order of first appearance; the
// merged rows without one after them, each alone.
std::vector<Joined> JoinGroups(const std::vector<Merged>& merged, const std::vector<OpRow>& target,
                               const std::vector<OpRow>& golden, bool group_by_golden) {
  std::vector<Joined> joined, alone;
  std::unordered_map<std::string_view, size_t> group_of;
  for (const Merged& m : merged) {
    const std::optional<size_t> group_row = group_by_golden ? m.golden : m.target;
    const std::optional<size_t> other_row = group_by_golden ? m.target : m.golden;
    if (!group_row) {
      Joined& j = alone.emplace_back();
      (group_by_golden ? j.target : j.golden).push_back(group_by_golden ? &target[*other_row] : &golden[*other_row]);
      continue;
    }
    const OpRow& grouping = group_by_golden ? golden[*group_row] : target[*group_row];
    const auto [it, added] = group_of.try_emplace(grouping.name, joined.size());
    if (added) (group_by_golden ? joined.emplace_back().golden : joined.emplace_back().target).push_back(&grouping);
    if (other_row) {
      Joined& j = joined[it->second];
      (group_by_golden ? j.target : j.golden).push_back(group_by_golden ? &target[*other_row] : &golden[*other_row]);
    }
  }
  joined.insert(joined.end(), std::make_move_iterator(alone.begin()), std::make_move_iterator(alone.end()));
  return joined;
}

// dual_monotonic_sort: repeatedly the row that is first among the rest by both positions (a missing
// position does not constrain). Each order is by position, missing ones last, ties in row order.
Result<std::vector<size_t>> DualMonotonicOrder(const std::vector<Joined>& rows, const std::string& source) {
  const size_t n = rows.size();
  const auto order_by = [&](std::optional<size_t> Joined::*pos) {
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const auto &x = rows[a].*pos, &y = rows[b].*pos;
      return x && (!y || *x < *y);
    });
    return order;
  };
  const std::vector<size_t> order1 = order_by(&Joined::target_pos), order2 = order_by(&Joined::golden_pos);
  std::vector<bool> used(n, false);
  std::vector<size_t> result;
  result.reserve(n);
  for (size_t i = 0, j = 0; result.size() < n;) {
    while (i < n && used[order1[i]]) ++i;
    while (j < n && used[order2[j]]) ++j;
    const std::optional<size_t> min1 = i < n ? std::optional(order1[i]) : std::nullopt;
    const std::optional<size_t> min2 = j < n ? std::optional(order2[j]) : std::nullopt;
    std::optional<size_t> picked;
    for (const std::optional<size_t>& k : {min1, min2}) {
      if (!k || used[*k]) continue;
      if (rows[*k].target_pos && k != min1) continue;
      if (rows[*k].golden_pos && k != min2) continue;
      picked = k;
      break;
    }
    if (!picked) {
      return Status::InvalidInput(source, "Conflicting comparison data: the two columns cannot be monotonically "
                                          "increasing at the same time.");
    }
    used[*picked] = true;
    result.push_back(*picked);
  }
  return result;
}

// A dump's row names → their last index (msprobe's {name: index} dict).
std::unordered_map<std::string_view, size_t> Ranks(const std::vector<OpRow>& rows) {
  std::unordered_map<std::string_view, size_t> rank;
  for (size_t i = 0; i < rows.size(); ++i) rank[rows[i].name] = i;
  return rank;
}

ResultRow MakeRow(const Joined& j, const ConsistentOptions& options) {
  const bool fsdp = options.backend == ConsistentBackend::kFsdp;
  const SideCells n = CellsOf(j.target, fsdp ? options.name_separator : ";  ");
  const SideCells b = CellsOf(j.golden, fsdp ? ";  " : options.name_separator);
  ResultRow r;
  using Field = std::string ResultRow::*;
  const std::tuple<Field, Field, std::string SideCells::*> kSideFields[] = {
      {&ResultRow::target_name, &ResultRow::golden_name, &SideCells::name},
      {&ResultRow::target_dtype, &ResultRow::golden_dtype, &SideCells::dtype},
      {&ResultRow::target_shape, &ResultRow::golden_shape, &SideCells::shape},
      {&ResultRow::target_requires_grad, &ResultRow::golden_requires_grad, &SideCells::requires_grad},
      {&ResultRow::target_data_name, &ResultRow::golden_data_name, &SideCells::data_name},
  };
  for (const auto& [target_field, golden_field, side_field] : kSideFields) {
    r.*target_field = n.*side_field;
    r.*golden_field = b.*side_field;
  }
  r.requires_grad_consistent = r.target_requires_grad == r.golden_requires_grad;
  r.target_stats = n.stats;
  r.golden_stats = b.stats;
  r.stack_info = n.stack;
  r.api = n.api;
  r.state = n.state ? *n.state : b.state.value_or(RowState::kInput);  // fill_state_api_origin_name
  r.matched = !j.target.empty() && !j.golden.empty();
  r.golden_only = j.target.empty();
  return r;
}

// fill_state_api_origin_name's API: a rollout-only row takes the training API its rollout API was
// paired with (the last such pair in row order), else the rollout API itself.
void FillApis(const std::vector<Joined>& rows, const std::vector<size_t>& order, std::vector<ResultRow>* out) {
  std::unordered_map<std::string, std::string> train_api_of;
  for (size_t k = 0; k < order.size(); ++k) {
    const Joined& j = rows[order[k]];
    if (!j.target.empty() && !j.golden.empty()) train_api_of[j.golden.front()->api] = (*out)[k].api;
  }
  for (size_t k = 0; k < order.size(); ++k) {
    const Joined& j = rows[order[k]];
    if (!j.target.empty()) continue;
    const std::string& golden_api = j.golden.front()->api;
    const auto it = train_api_of.find(golden_api);
    (*out)[k].api = it != train_api_of.end() ? it->second : golden_api;
  }
}

}  // namespace

Status CheckConsistentDumps(const FlatDump& target, const FlatDump& golden) {
  if (target.is_debug || golden.is_debug) {
    return Status::InvalidInput(target.json_path, "--consistent_check compares dump.json files, not debug.json");
  }
  if (target.mode == CompareMode::kMd5 || golden.mode == CompareMode::kMd5) {
    return Status::InvalidInput(target.json_path,
                                "--consistent_check compares tensors or statistics, not md5 summaries");
  }
  return Status::Ok();
}

Result<std::vector<ResultRow>> BuildConsistentRows(const std::vector<OpRow>& target, const std::vector<OpRow>& golden,
                                                   const ConsistentOptions& options, const std::string& source) {
  const std::vector<Merged> merged =
      OuterMerge(ConsistentKeys(target, options.backend, true), ConsistentKeys(golden, options.backend, false));
  std::vector<Joined> rows = JoinGroups(merged, target, golden, options.backend == ConsistentBackend::kFsdp);
  const auto target_rank = Ranks(target), golden_rank = Ranks(golden);
  const auto position = [](const std::unordered_map<std::string_view, size_t>& rank,
                           const std::vector<const OpRow*>& side) -> std::optional<size_t> {
    if (side.empty()) return std::nullopt;
    return rank.at(side.front()->name);
  };
  for (Joined& j : rows) {
    j.target_pos = position(target_rank, j.target);
    j.golden_pos = position(golden_rank, j.golden);
  }
  MSP_ASSIGN_OR_RETURN(const std::vector<size_t> order, DualMonotonicOrder(rows, source));
  std::vector<ResultRow> out;
  out.reserve(order.size());
  for (size_t k : order) out.push_back(MakeRow(rows[k], options));
  FillApis(rows, order, &out);
  return out;
}

}  // namespace msprobe::compare
