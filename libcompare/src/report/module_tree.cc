#include "report/module_tree_internal.h"

#include <filesystem>
#include <unordered_map>

#include "msprobe/dump/text/json_file.h"

namespace msprobe::compare::internal {
namespace {

using ParentMap = std::unordered_map<std::string, std::string>;  // absent or null parent: none

// The parents of construct.json, or why they cannot be used.
std::string ReadParents(const std::string& path, ParentMap* parents) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::is_regular_file(path, ec)) return "no construct.json beside the dump: APIs are listed flat";
  Result<JsonDocument> doc = ReadJsonFile(path);
  if (!doc.ok()) return "construct.json could not be read (" + doc.status().ToString() + "): APIs are listed flat";
  if (!doc->IsObject()) return "construct.json is not a JSON object: APIs are listed flat";
  for (const auto& m : doc->GetObject()) {
    if (m.value.IsNull()) continue;
    if (!m.value.IsString()) return "construct.json names a parent that is neither a name nor null: APIs are listed flat";
    parents->emplace(std::string(m.name.GetString(), m.name.GetStringLength()),
                     std::string(m.value.GetString(), m.value.GetStringLength()));
  }
  return "";
}

// Whether walking up from `node` reaches `target`. The parents set so far form a forest, so it ends.
bool Reaches(const ModuleTree& tree, int32_t node, int32_t target) {
  for (; node != -1; node = tree.parents[node]) {
    if (node == target) return true;
  }
  return false;
}

}  // namespace

ModuleTree BuildModuleTree(const std::vector<std::string>& apis, const std::string& construct_json) {
  ModuleTree tree;
  tree.names = apis;
  tree.parents.assign(apis.size(), -1);
  ParentMap parents;
  tree.note = ReadParents(construct_json, &parents);
  if (!tree.note.empty()) return tree;
  std::unordered_map<std::string, int32_t> index;
  for (size_t i = 0; i < apis.size(); ++i) index.emplace(apis[i], static_cast<int32_t>(i));
  // Each node, the modules added included, is linked to its parent once; a link that would close a
  // cycle (a hostile file) is left out, so the node stays a root.
  for (size_t i = 0; i < tree.names.size(); ++i) {
    auto up = parents.find(tree.names[i]);
    if (up == parents.end() || up->second == tree.names[i]) continue;
    auto [it, added] = index.try_emplace(up->second, static_cast<int32_t>(tree.names.size()));
    if (added) {
      tree.names.push_back(up->second);
      tree.parents.push_back(-1);
    }
    if (!Reaches(tree, it->second, static_cast<int32_t>(i))) tree.parents[i] = it->second;
  }
  return tree;
}

}  // namespace msprobe::compare::internal
