// The model as a tree for the HTML report: a pair's APIs under the modules that called them, from the
// construct.json msprobe writes beside dump.json ({"API or module": "parent module" or null}).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace msprobe::compare::internal {

struct ModuleTree {
  // Nodes 0 .. apis.size()-1 are the APIs given, in that order; the modules above them follow.
  std::vector<std::string> names;
  std::vector<int32_t> parents;  // -1: a root
  std::string note;              // why the tree is flat, when it is ("" when construct.json was read)
};

// A construct.json that is absent, unreadable or not an object of names leaves the APIs flat, with a
// note: the page is a view of the compare, which has already succeeded, and must not fail it.
ModuleTree BuildModuleTree(const std::vector<std::string>& apis, const std::string& construct_json);

}  // namespace msprobe::compare::internal
