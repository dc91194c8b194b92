#include "msprobe/compare/first_diff/comm_args.h"

#include <cmath>

namespace msprobe::compare {

std::string CommApiOf(std::string_view op_name) {
  const size_t first = op_name.find('.');
  if (first == std::string_view::npos) return {};
  const size_t second = op_name.find('.', first + 1);
  return std::string(op_name.substr(first + 1, second == std::string_view::npos ? std::string_view::npos : second - first - 1));
}

std::optional<int> RankOf(const JsonValue* v) {
  if (v == nullptr || !v->IsNumber()) return std::nullopt;
  const double d = v->GetDouble();
  if (!std::isfinite(d) || d != std::trunc(d) || std::fabs(d) > 1e9) return std::nullopt;
  return static_cast<int>(d);
}

std::optional<std::vector<int>> ProcessGroupRanks(const JsonValue& group) {
  if (!group.IsObject()) return std::nullopt;
  const JsonValue* members = Member(group, "group_ranks");
  if (members == nullptr || !members->IsArray()) return std::nullopt;
  std::vector<int> ranks;
  for (const JsonValue& m : members->GetArray()) {
    if (const std::optional<int> r = RankOf(&m)) ranks.push_back(*r);
  }
  return ranks;
}

}  // namespace msprobe::compare
