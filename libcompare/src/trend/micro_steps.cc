#include "trend/micro_steps_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "msprobe/dump/text/python_format.h"
#include "trend/dotted_name_internal.h"
#include "trend/python_dict_internal.h"
#include "trend/trend_value_internal.h"

namespace msprobe::compare::internal {
namespace {

constexpr std::string_view kMegatronKey = "megatron_micro_step_number";

// What a key of construct.json leads to: another key, a root's micro step, or nothing (a backward
// key listed without a parent).
using Parent = std::variant<std::string, int64_t, std::monostate>;

bool StartsWithRootPrefix(std::string_view key) {
  return key.starts_with("Module") || key.starts_with("Cell") || key.starts_with("optimizer");
}

// The walk compares a backward or parameter-gradient key as its forward twin.
std::string AsForward(std::string_view key) {
  return PythonReplace(PythonReplace(key, ".backward", ".forward"), ".parameters_grad", ".forward");
}

std::string_view View(const JsonValue& v) { return {v.GetString(), v.GetStringLength()}; }

// Each key's link, in file order, as data2db builds it: a parentless key is a root when its name
// starts with Module, Cell or optimizer, and numbered in file order; a parentless backward key
// leads nowhere; other parentless keys are not listed.
Result<std::vector<std::pair<std::string_view, Parent>>> Links(const JsonValue& construct, const std::string& source) {
  const auto members = DictItems(construct);
  // Megatron's form is told by this key: its values are [parent, micro step].
  const bool megatron = std::any_of(members.begin(), members.end(), [](const auto& m) { return m.first == kMegatronKey; });
  std::vector<std::pair<std::string_view, Parent>> links;
  int64_t roots = 0;
  for (auto [key, value] : members) {
    if (megatron && key == kMegatronKey) continue;
    if (megatron && value->IsArray()) {
      if (value->Size() != 2) {
        return Status::InvalidInput(source, fmt::format("'{}': a Megatron entry must be [parent, micro step]", key));
      }
      value = &(*value)[0];
    }
    if (value->IsString()) {
      links.emplace_back(key, std::string(View(*value)));
    } else if (!value->IsNull()) {
      return Status::InvalidInput(source, fmt::format("'{}': its parent must be a name or null", key));
    } else if (key.find(".backward") != std::string_view::npos) {
      links.emplace_back(key, std::monostate{});
    } else if (StartsWithRootPrefix(key)) {
      links.emplace_back(key, roots++);
    }
  }
  return links;
}

// "7" < "10" as numbers, however many digits.
bool DigitsLess(std::string_view a, std::string_view b) {
  a.remove_prefix(std::min(a.find_first_not_of('0'), a.size()));
  b.remove_prefix(std::min(b.find_first_not_of('0'), b.size()));
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

// Renumbers the call indices of the keys of each micro step: keys alike but for their index (the last
// part, "Module.x.forward.3", or the one before it, "Tensor.add.3.forward") are numbered 0, 1, ... in
// the order of their old indices, ties in file order.
void Renumber(const std::vector<std::pair<std::string_view, MicroStepKey*>>& keys) {
  struct Member {
    std::vector<std::string_view> parts;
    size_t index;  // the part holding the call index; parts.size() for a key without one
    MicroStepKey* info;
  };
  std::unordered_map<std::string, std::vector<Member>> groups;  // by micro step and name pattern
  for (const auto& [key, info] : keys) {
    Member m{SplitDots(key), 0, info};
    const std::span<const std::string_view> parts(m.parts);
    const size_t n = parts.size();
    std::string pattern;
    if (AllDigits(parts[n - 1])) {
      m.index = n - 1;
      pattern = JoinDots(parts.first(n - 1));
    } else if (n >= 2 && AllDigits(parts[n - 2])) {
      m.index = n - 2;
      pattern = JoinDots(parts.first(n - 2)) + '.' + std::string(parts[n - 1]);
    } else {
      m.index = n;
      pattern = std::string(key);
    }
    auto& group = groups[std::to_string(info->micro) + '\n' + pattern];
    group.push_back(std::move(m));
  }
  for (auto& [pattern, members] : groups) {
    // A key without an index counts as number 0.
    const auto number = [](const Member& m) { return m.index < m.parts.size() ? m.parts[m.index] : "0"; };
    std::stable_sort(members.begin(), members.end(),
                     [&](const Member& a, const Member& b) { return DigitsLess(number(a), number(b)); });
    for (size_t i = 0; i < members.size(); ++i) {
      Member& m = members[i];
      if (m.index == m.parts.size()) {
        m.info->renamed = JoinDots(m.parts);
        continue;
      }
      const std::string renumbered = std::to_string(i);
      m.parts[m.index] = renumbered;
      // A bare number keeps the dot before it: key "7" becomes ".0", as msprobe renames it.
      m.info->renamed = m.parts.size() == 1 ? "." + renumbered : JoinDots(m.parts);
    }
  }
}

}  // namespace

Result<MicroSteps> MicroStepsOf(const JsonValue& construct, const std::string& source) {
  if (!construct.IsObject()) return Status::InvalidInput(source, "construct.json must be an object of names");
  MSP_ASSIGN_OR_RETURN(auto links, Links(construct, source));
  std::unordered_map<std::string_view, const Parent*> parent_of;
  for (const auto& [key, parent] : links) parent_of[key] = &parent;
  MicroSteps steps;
  std::vector<std::pair<std::string_view, MicroStepKey*>> found;  // in file order
  int64_t highest = -1;
  for (const auto& [key, value] : DictItems(construct)) {  // every key, listed or not
    if (key == kMegatronKey) continue;
    std::string node = AsForward(key);
    std::optional<int64_t> micro;
    for (size_t hops = 0;; ++hops) {
      const auto it = parent_of.find(node);
      if (it == parent_of.end()) break;
      if (hops > links.size()) return Status::InvalidInput(source, fmt::format("'{}': its parents form a cycle", key));
      if (const auto* name = std::get_if<std::string>(it->second)) {
        node = AsForward(*name);
        continue;
      }
      if (const auto* root = std::get_if<int64_t>(it->second)) micro = *root;
      break;
    }
    if (!micro) continue;
    highest = std::max(highest, *micro);
    MicroStepKey& info = steps.keys[std::string(key)];
    info.micro = *micro;
    found.emplace_back(key, &info);
  }
  steps.count = highest >= 0 ? highest + 1 : 1;
  Renumber(found);
  return steps;
}

Result<MicroSteps> ReadMicroSteps(const std::string& construct_json) {
  MSP_ASSIGN_OR_RETURN(JsonDocument doc, ReadJsonFile(construct_json));
  return MicroStepsOf(doc, construct_json);
}

}  // namespace msprobe::compare::internal
