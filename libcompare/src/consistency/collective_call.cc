#include "consistency/collective_call_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "msprobe/compare/first_diff/comm_args.h"

namespace msprobe::compare::internal {
namespace {

// The collectives whose result every member holds alike, and the parameter that receives it (a
// tensor, or a list of them). reduce_scatter and all_to_all leave each member its own part; reduce,
// gather and scatter fill one member; send and recv are not collectives.
struct IdenticalResult {
  std::string_view api, parameter;
};
constexpr std::array<IdenticalResult, 7> kIdenticalResults = {{
    {"all_reduce", "tensor"},
    {"broadcast", "tensor"},
    {"all_gather", "tensor_list"},
    {"all_gather_into_tensor", "output_tensor"},
    {"_all_gather_base", "output_tensor"},
    {"all_reduce_coalesced", "tensors"},
    {"all_gather_coalesced", "output_tensor_lists"},
}};
constexpr std::array<std::string_view, 6> kReducing = {"all_reduce", "all_reduce_coalesced", "reduce",
                                                       "reduce_scatter", "reduce_scatter_tensor", "_reduce_scatter_base"};
constexpr std::array<std::string_view, 2> kPrefixes = {"Distributed.", "MintDistributed."};

bool IsProcessGroup(const JsonValue& v) {
  const char* type = v.IsObject() ? StringMember(v, "type") : nullptr;
  return type != nullptr && std::string_view(type).ends_with("ProcessGroup");
}

// The group kwarg, else the first argument that is a ProcessGroup.
std::optional<std::vector<int>> GroupOf(const JsonValue* args, const JsonValue* kwargs) {
  if (kwargs != nullptr && kwargs->IsObject()) {
    if (const JsonValue* group = Member(*kwargs, "group"); group != nullptr && IsProcessGroup(*group)) {
      return ProcessGroupRanks(*group);
    }
  }
  if (args != nullptr && args->IsArray()) {
    for (const JsonValue& item : args->GetArray()) {
      if (IsProcessGroup(item)) return ProcessGroupRanks(item);
    }
  }
  return std::nullopt;
}

// Where the result lands in "output" (args + kwargs' values): the first argument when given
// positionally (the receiving parameter comes first in every API above), else the kwarg's place.
std::string ResultPath(std::string_view parameter, const JsonValue* args, const JsonValue* kwargs) {
  if (args != nullptr && args->IsArray() && !args->Empty()) return "output.0";
  if (kwargs == nullptr || !kwargs->IsObject()) return "";
  size_t index = 0;
  for (const auto& m : kwargs->GetObject()) {
    if (std::string_view(m.name.GetString(), m.name.GetStringLength()) == parameter) return fmt::format("output.{}", index);
    ++index;
  }
  return "";
}

}  // namespace

std::optional<CollectiveCall> ReadCollectiveCall(std::string_view key, const JsonValue& entry) {
  const bool prefixed = std::any_of(kPrefixes.begin(), kPrefixes.end(), [&](std::string_view p) { return key.starts_with(p); });
  if (!prefixed || !key.ends_with(".forward") || !entry.IsObject()) return std::nullopt;
  CollectiveCall call;
  call.api = CommApiOf(key);
  const auto identical = std::find_if(kIdenticalResults.begin(), kIdenticalResults.end(),
                                      [&](const IdenticalResult& r) { return r.api == call.api; });
  call.identical_result = identical != kIdenticalResults.end();
  call.reduces = std::find(kReducing.begin(), kReducing.end(), call.api) != kReducing.end();
  if (!call.identical_result && !call.reduces) return std::nullopt;
  const JsonValue *args = Member(entry, "input_args"), *kwargs = Member(entry, "input_kwargs");
  if (call.identical_result) call.result_path = ResultPath(identical->parameter, args, kwargs);
  if (const std::optional<std::vector<int>> group = GroupOf(args, kwargs)) {
    call.grouped = true;
    call.group.assign(group->begin(), group->end());
    std::sort(call.group.begin(), call.group.end());
    call.group.erase(std::unique(call.group.begin(), call.group.end()), call.group.end());
  }
  return call;
}

std::string RanksText(const std::vector<int64_t>& ranks) {
  std::string text;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!text.empty()) text += ',';
    text += j == i ? fmt::format("{}", ranks[i]) : j == i + 1 ? fmt::format("{},{}", ranks[i], ranks[j])
                                                              : fmt::format("{}-{}", ranks[i], ranks[j]);
    i = j + 1;
  }
  return text;
}

}  // namespace msprobe::compare::internal
