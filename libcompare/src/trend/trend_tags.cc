#include "trend/trend_tags_internal.h"

#include <algorithm>
#include <span>

#include "trend/dotted_name_internal.h"
#include "trend/trend_value_internal.h"

namespace msprobe::compare::internal {
namespace {

constexpr std::string_view kDefault = "default", kIndex = "index", kLayer = "layer", kModule = "module",
                           kFunction = "function";

void Add(std::vector<TrendTag>* tags, std::string name, std::string_view category) {
  TrendTag tag{std::move(name), category};
  if (std::find(tags->begin(), tags->end(), tag) == tags->end()) tags->push_back(std::move(tag));
}

// A module path such as "module.decoder.layers.0.self_attention.linear_qkv.Linear": a number after
// a name makes a layer ("layers.0"), numbers after numbers (or first) are passed over, and each run
// of names between layers makes a module ("module.decoder", "self_attention.linear_qkv.Linear").
void AddModuleTags(std::span<const std::string_view> parts, std::vector<TrendTag>* tags) {
  // A run of names makes a module unless it joins to nothing (empty parts of a name like "a..3").
  const auto add_module = [&](std::span<const std::string_view> run) {
    std::string name = JoinDots(run);
    if (!name.empty()) Add(tags, std::move(name), kModule);
  };
  size_t run = 0;  // where the names after the last number start
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!AllDigits(parts[i])) continue;
    if (i > 0 && run < i) {  // a name before it: a layer, and the names before that name a module
      add_module(parts.subspan(run, i - 1 - run));
      Add(tags, std::string(parts[i - 1]) + '.' + std::string(parts[i]), kLayer);
    }
    run = i + 1;
  }
  add_module(parts.subspan(run));
}

}  // namespace

std::vector<TrendTag> DumpTargetTags(std::string_view target_name) {
  const std::vector<std::string_view> parts = SplitDots(target_name);
  if (parts.size() < 3) return {};
  std::vector<TrendTag> tags;
  std::vector<std::string_view> rest;  // the parts before the index, but Module and Cell
  bool module = false;
  for (size_t i = 0; i + 2 < parts.size(); ++i) {
    if (parts[i] == "Module" || parts[i] == "Cell") {
      Add(&tags, std::string(parts[i]), kDefault);
      module = true;
    } else {
      rest.push_back(parts[i]);
    }
  }
  if (rest.empty()) return {};  // "Module.Cell.input.0": nothing to tell it by, not even its index
  if (module) {
    AddModuleTags(rest, &tags);
  } else {
    Add(&tags, JoinDots(rest), kFunction);
  }
  Add(&tags, JoinDots(std::span(parts).last(2)), kIndex);
  return tags;
}

std::vector<TrendTag> MonitorTargetTags(std::string_view target_name) {
  const std::vector<std::string_view> parts = SplitDots(target_name);
  std::vector<TrendTag> tags;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!AllDigits(parts[i])) {
      Add(&tags, std::string(parts[i]), kModule);
    } else if (i > 0 && !AllDigits(parts[i - 1])) {
      Add(&tags, std::string(parts[i - 1]) + '.' + std::string(parts[i]), kLayer);
    }
  }
  return tags;
}

}  // namespace msprobe::compare::internal
