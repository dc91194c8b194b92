// --data-parallel's text (docs/consistency.md §3.2) and the names the findings are written with.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "msprobe/compare/consistency/consistency_job.h"

namespace msprobe::compare {
namespace {

constexpr int64_t kMaxRank = 1'000'000;  // past any cluster; bounds a range's expansion

Status Bad(std::string_view text, std::string_view what) {
  return Status::InvalidInput("--data-parallel", fmt::format("'{}': {}; give auto, none, all or groups such as 0-3/4-7 "
                                                              "or 0,2,4,6/1,3,5,7",
                                                              text, what));
}

std::optional<int64_t> RankNumber(std::string_view s) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty() || v < 0 || v > kMaxRank) return std::nullopt;
  return v;
}

// "0-3,7": the ranks of one group, ascending.
Result<std::vector<int64_t>> ParseGroup(std::string_view text, std::string_view group) {
  std::vector<int64_t> ranks;
  for (size_t start = 0; start <= group.size();) {
    const size_t comma = std::min(group.find(',', start), group.size());
    const std::string_view part = group.substr(start, comma - start);
    const size_t dash = part.find('-');
    const std::optional<int64_t> a = RankNumber(part.substr(0, dash));
    const std::optional<int64_t> b = dash == std::string_view::npos ? a : RankNumber(part.substr(dash + 1));
    if (!a || !b || *b < *a) return Bad(text, fmt::format("'{}' is not a rank or a range a-b", part));
    for (int64_t r = *a; r <= *b; ++r) ranks.push_back(r);
    start = comma + 1;
  }
  std::sort(ranks.begin(), ranks.end());
  return ranks;
}

}  // namespace

Result<DataParallelSpec> ParseDataParallel(std::string_view text) {
  DataParallelSpec spec;
  if (text == "auto") return spec;
  if (text == "none" || text == "all") {
    spec.kind = text == "none" ? DataParallelSpec::Kind::kNone : DataParallelSpec::Kind::kAll;
    return spec;
  }
  spec.kind = DataParallelSpec::Kind::kGroups;
  std::vector<int64_t> seen;
  for (size_t start = 0; start <= text.size();) {
    const size_t slash = std::min(text.find('/', start), text.size());
    MSP_ASSIGN_OR_RETURN(std::vector<int64_t> group, ParseGroup(text, text.substr(start, slash - start)));
    seen.insert(seen.end(), group.begin(), group.end());
    spec.groups.push_back(std::move(group));
    start = slash + 1;
  }
  std::sort(seen.begin(), seen.end());
  if (const auto twice = std::adjacent_find(seen.begin(), seen.end()); twice != seen.end()) {
    return Bad(text, fmt::format("rank {} is in two groups", *twice));
  }
  return spec;
}

std::string_view FindingKindName(ConsistencyFinding::Kind kind) {
  return kind == ConsistencyFinding::Kind::kInconsistency ? "inconsistency" : "suspect";
}

}  // namespace msprobe::compare
