#include "msprobe/compare/rows/layer_mapping.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <string_view>

#include "msprobe/dump/text/json_file.h"
#include "msprobe/dump/text/python_format.h"

// The rules are msprobe's (core/compare/layer_mapping/{data_scope_parser,postprocess_pass,layer_mapping}.py),
// written down in docs/compare.md §3.7; this is our own implementation of them.
namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTopLayer = "TopLayer";
constexpr std::string_view kParamsGrad = "parameters_grad";

std::vector<std::string> Split(std::string_view s) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (true) {
    const size_t dot = s.find('.', begin);
    parts.emplace_back(s.substr(begin, dot == std::string_view::npos ? std::string_view::npos : dot - begin));
    if (dot == std::string_view::npos) return parts;
    begin = dot + 1;
  }
}

std::string Join(const std::vector<std::string>& parts, size_t begin, size_t end) {
  std::string out;
  for (size_t i = begin; i < end && i < parts.size(); ++i) {
    if (i > begin) out += '.';
    out += parts[i];
  }
  return out;
}

std::string_view Str(const JsonValue& v) { return {v.GetString(), v.GetStringLength()}; }

bool IsLayer(std::string_view api_type) { return api_type == "Cell" || api_type == "Module"; }

struct DataItem {
  std::string name, api_type, api_name, type_name, state;
  std::string layer_scope, frame_stack_scope, full_scope;
};

// The function of the outermost framework frame between msprobe's hook ("Template") and the model's
// forward/construct, or "" (find_regard_scope, find_stack_func_list, get_stack_in_lines).
std::string FrameFunction(const std::vector<std::string>& lines, bool mindspore) {
  const auto is_end = [&](const std::string& l) {
    return mindspore ? l.find("construct") != std::string::npos
                     : l.find("in forward,") != std::string::npos || l.find("in backward,") != std::string::npos;
  };
  long start = -1;
  size_t end = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("Template") != std::string::npos) {
      start = static_cast<long>(i);
    } else if (start >= 0 && is_end(lines[i])) {
      end = i;
      break;
    }
  }
  static const char* const kFrameFiles[] = {"site-packages/torch", "package/torch", "site-packages/mindspore",
                                            "package/mindspore"};
  const std::string* frame = nullptr;
  for (size_t i = static_cast<size_t>(start + 1); i < end; ++i) {
    const std::string file = lines[i].substr(0, lines[i].find(','));
    const bool framework = std::any_of(std::begin(kFrameFiles), std::end(kFrameFiles),
                                       [&](const char* f) { return file.find(f) != std::string::npos; });
    if (!framework) break;
    frame = &lines[i];
  }
  if (frame == nullptr) return "";
  std::vector<std::string> fields;
  for (size_t b = 0;;) {
    const size_t c = frame->find(',', b);
    fields.push_back(frame->substr(b, c == std::string::npos ? std::string::npos : c - b));
    if (c == std::string::npos) break;
    b = c + 1;
  }
  if (fields.size() < 3) return "";  // msprobe would fail on the index; we take no scope
  if (fields[0].find("msprobe") != std::string::npos || fields[0].find("MindSpeed") != std::string::npos) return "";
  if (fields[2].find("construct") != std::string::npos || fields[2].find("__call__") != std::string::npos) return "";
  // "in forward" → its second word.
  std::vector<std::string> words;
  for (size_t b = 0; b < fields[2].size();) {
    while (b < fields[2].size() && std::isspace(static_cast<unsigned char>(fields[2][b]))) ++b;
    size_t e = b;
    while (e < fields[2].size() && !std::isspace(static_cast<unsigned char>(fields[2][e]))) ++e;
    if (e > b) words.push_back(fields[2].substr(b, e - b));
    b = e;
  }
  return words.size() >= 2 ? words[1] : "";
}

Result<DataItem> MakeItem(const LayerDumpInfo& dump, const std::string& name) {
  const std::vector<std::string> parts = Split(name);
  const size_t n = parts.size();
  if (n < 4) {
    return Status::InvalidInput(dump.source, fmt::format("-lm: entry \"{}\" has fewer than four dot-separated fields", name));
  }
  DataItem item;
  item.name = name;
  if (parts[n - 1] == kParamsGrad) {
    item.api_type = kParamsGrad;
    item.api_name = parts[n - 3];
    item.type_name = parts[n - 2];
    item.state = kParamsGrad;
    item.layer_scope = Join(parts, 0, n - 3);
  } else {
    item.api_type = parts[0];
    item.type_name = parts[n - 3];
    if (IsLayer(item.api_type)) {
      item.api_name = parts[n - 4];
      item.state = parts[n - 2];
      item.layer_scope = Join(parts, 0, n - 4);  // the module's parent
    } else {
      item.api_name = item.type_name;
      item.state = parts[n - 1];
      auto parent = dump.parent.find(name);
      if (parent != dump.parent.end() && !parent->second.empty()) {
        const std::vector<std::string> p = Split(parent->second);
        if (parent->second.find('.') != std::string::npos && p.size() < 4) {
          return Status::InvalidInput(dump.source, fmt::format("-lm: construct.json parent \"{}\" of \"{}\" has fewer than "
                                                               "four dot-separated fields", parent->second, name));
        }
        item.layer_scope = Join(p, 0, p.size() >= 3 ? p.size() - 3 : 0);
      } else {
        item.layer_scope = kTopLayer;
      }
      auto stack = dump.stack.find(name);
      if (stack != dump.stack.end() && item.api_type != "Primitive" && item.api_type != "Jit") {
        item.frame_stack_scope = FrameFunction(stack->second, dump.framework != "pytorch");
      }
    }
  }
  item.full_scope = item.layer_scope;
  if (!item.frame_stack_scope.empty()) item.full_scope += "." + item.frame_stack_scope;
  item.full_scope += "." + item.api_name;
  return item;
}

// A backward entry takes the scope of its forward entry (backward_pass).
void BackwardPass(std::vector<DataItem>* items) {
  std::unordered_map<std::string, size_t> by_name;
  for (size_t i = 0; i < items->size(); ++i) by_name.emplace((*items)[i].name, i);
  for (DataItem& item : *items) {
    std::vector<std::string> parts = Split(item.name);
    const size_t from = parts.size() >= 2 ? parts.size() - 2 : 0;
    bool backward = false;
    for (size_t i = from; i < parts.size(); ++i) backward |= parts[i] == "backward";
    if (!backward) continue;
    for (size_t i = from; i < parts.size(); ++i) {
      for (size_t at = parts[i].find("backward"); at != std::string::npos; at = parts[i].find("backward", at + 7)) {
        parts[i].replace(at, 8, "forward");
      }
    }
    auto forward = by_name.find(Join(parts, 0, parts.size()));
    if (forward == by_name.end()) continue;
    item.full_scope = (*items)[forward->second].full_scope;
    item.layer_scope = (*items)[forward->second].layer_scope;
  }
}

// The component after `prefix.` in `scope`, if `scope` starts with it.
std::optional<std::pair<size_t, size_t>> NextComponent(const std::string& scope, const std::string& prefix) {
  if (scope.size() <= prefix.size() + 1 || scope.compare(0, prefix.size(), prefix) != 0 || scope[prefix.size()] != '.') {
    return std::nullopt;
  }
  const size_t begin = prefix.size() + 1;
  const size_t end = std::min(scope.find('.', begin), scope.size());
  if (end == begin) return std::nullopt;
  for (size_t i = begin; i < end; ++i) {
    if (std::isspace(static_cast<unsigned char>(scope[i]))) return std::nullopt;
  }
  return std::make_pair(begin, end);
}

// The last run of digits of the component after `prefix.`, or none.
std::optional<long long> LastNumberAfter(const std::string& scope, const std::string& prefix) {
  auto at = NextComponent(scope, prefix);
  if (!at) return std::nullopt;
  size_t e = at->second;
  while (e > at->first && !std::isdigit(static_cast<unsigned char>(scope[e - 1]))) --e;
  if (e == at->first) return std::nullopt;
  size_t b = e;
  while (b > at->first && std::isdigit(static_cast<unsigned char>(scope[b - 1]))) --b;
  if (e - b > 15) return std::nullopt;
  return std::stoll(scope.substr(b, e - b));
}

// Pipeline-parallel MindSpore numbers ParallelTransformer's layers globally, PyTorch per stage:
// renumber the child after "<ParallelTransformer scope>.layers" from 0 (renumber_index_pass).
void RenumberPass(std::vector<DataItem>* items) {
  std::vector<std::string> prefixes;
  for (const DataItem& item : *items) {
    if (item.type_name != "ParallelTransformer") continue;
    std::string prefix = item.full_scope + ".layers";
    if (std::find(prefixes.begin(), prefixes.end(), prefix) == prefixes.end()) prefixes.push_back(std::move(prefix));
  }
  for (const std::string& prefix : prefixes) {
    std::optional<long long> min;
    for (const DataItem& item : *items) {
      auto number = LastNumberAfter(item.full_scope, prefix);
      if (number && (!min || *number < *min)) min = number;
    }
    if (!min) continue;
    for (DataItem& item : *items) {
      auto number = LastNumberAfter(item.full_scope, prefix);
      if (!number) continue;
      auto at = NextComponent(item.full_scope, prefix);
      item.full_scope.replace(at->first, at->second - at->first, std::to_string(*number - *min));
    }
  }
}

struct Node {
  std::string type_name;
  std::map<std::string, std::unique_ptr<Node>> children;
  std::unordered_map<std::string, std::vector<size_t>> items;  // state → item indices in dump order
  const Node* Get(const std::string& name) const {
    auto it = children.find(name);
    return it == children.end() ? nullptr : it->second.get();
  }
};

struct Tree {
  std::vector<DataItem> items;
  Node root;
};

Result<Tree> BuildTree(const LayerDumpInfo& dump) {
  Tree tree;
  tree.root.type_name = kTopLayer;
  tree.items.reserve(dump.keys.size());
  for (const std::string& key : dump.keys) {
    MSP_ASSIGN_OR_RETURN(DataItem item, MakeItem(dump, key));
    tree.items.push_back(std::move(item));
  }
  BackwardPass(&tree.items);
  RenumberPass(&tree.items);
  for (size_t i = 0; i < tree.items.size(); ++i) {
    const DataItem& item = tree.items[i];
    const std::vector<std::string> parts = Split(item.full_scope);
    Node* node = &tree.root;
    for (size_t p = 1; p < parts.size(); ++p) {  // the first component (Cell/Module/TopLayer) is the root
      auto& child = node->children[parts[p]];
      if (!child) child = std::make_unique<Node>(Node{parts[p], {}, {}});
      node = child.get();
    }
    node->items[item.state].push_back(i);
    node->type_name = item.type_name;
  }
  return tree;
}

// convert_scope: the target item's scope in golden names, with its state and its place among the
// items of that state at its node.
std::string ConvertScope(const Tree& tree, const DataItem& item, const LayerMapping& rules, size_t* index) {
  std::string scope(kTopLayer);
  const std::vector<std::string> parts = Split(item.full_scope);
  const Node* node = &tree.root;
  size_t idx = 0;
  while (node != nullptr && idx + 1 < parts.size()) {
    const std::string& child = parts[idx + 1];
    size_t step = 1;
    bool mapped = false;
    auto by_class = rules.by_class.find(node->type_name);
    if (by_class != rules.by_class.end()) {
      auto list = by_class->second.find(child);
      if (list != by_class->second.end()) {
        for (const LayerRule& rule : list->second) {
          if (idx + rule.level < parts.size() && Join(parts, idx + 1, idx + 1 + rule.level) == rule.origin) {
            scope += "." + rule.target;
            step = rule.level;
            mapped = true;
            break;
          }
        }
      }
    }
    if (!mapped) scope += "." + child;
    for (size_t s = 0; s < step && node != nullptr; ++s) node = node->Get(parts[++idx]);
  }
  *index = std::numeric_limits<size_t>::max();
  if (node != nullptr) {
    auto list = node->items.find(item.state);
    if (list != node->items.end()) {
      for (size_t i = 0; i < list->second.size(); ++i) {
        if (tree.items[list->second[i]].name == item.name) *index = i;
      }
    }
  }
  return scope;
}

const DataItem* Query(const Tree& tree, const std::string& scope, const std::string& state, size_t index) {
  const std::vector<std::string> parts = Split(scope);
  const Node* node = &tree.root;
  for (size_t p = 1; p < parts.size() && node != nullptr; ++p) node = node->Get(parts[p]);
  if (node == nullptr) return nullptr;
  auto list = node->items.find(state);
  if (list == node->items.end() || index >= list->second.size()) return nullptr;
  return &tree.items[list->second[index]];
}

Result<JsonDocument> ReadBeside(const std::string& dump_json, const char* name, bool required, bool* present) {
  const fs::path path = fs::path(dump_json).parent_path() / name;
  std::error_code ec;
  *present = fs::is_regular_file(path, ec);
  if (!*present) {
    if (required) return Status::NotFound(path.string(), "-lm needs the construct.json written beside dump.json");
    return JsonDocument();
  }
  return ReadJsonFile(path.string());
}

}  // namespace

Result<LayerDumpInfo> ReadLayerDumpInfo(const std::string& dump_json, const std::string& framework) {
  LayerDumpInfo info;
  info.framework = framework == "mindtorch" ? "mindspore" : framework;
  info.source = dump_json;
  {
    MSP_ASSIGN_OR_RETURN(JsonDocument dump, ReadJsonFile(dump_json));
    const JsonValue* data = dump.IsObject() ? Member(dump, "data") : nullptr;
    if (data != nullptr && data->IsObject()) {
      for (const auto& m : data->GetObject()) info.keys.emplace_back(Str(m.name));
    }
  }
  bool present = false;
  const std::string construct_path = (fs::path(dump_json).parent_path() / "construct.json").string();
  MSP_ASSIGN_OR_RETURN(JsonDocument construct, ReadBeside(dump_json, "construct.json", true, &present));
  if (!construct.IsObject()) return Status::InvalidInput(construct_path, "construct.json is not a JSON object");
  for (const auto& m : construct.GetObject()) {
    if (m.value.IsNull()) continue;
    if (!m.value.IsString()) {
      return Status::InvalidInput(construct_path, fmt::format("the parent of \"{}\" is neither a name nor null", Str(m.name)));
    }
    info.parent[std::string(Str(m.name))] = std::string(Str(m.value));
  }
  const std::string stack_path = (fs::path(dump_json).parent_path() / "stack.json").string();
  MSP_ASSIGN_OR_RETURN(JsonDocument stack, ReadBeside(dump_json, "stack.json", false, &present));
  if (!present) return info;
  if (!stack.IsObject()) return Status::InvalidInput(stack_path, "stack.json is not a JSON object");
  const auto lines_of = [&](const JsonValue& v, std::vector<std::string>* out) -> Status {
    if (v.IsNull()) return Status::Ok();
    if (!v.IsArray()) return Status::InvalidInput(stack_path, "a stack is not a list of strings");
    for (const auto& line : v.GetArray()) {
      if (!line.IsString()) return Status::InvalidInput(stack_path, "a stack is not a list of strings");
      out->emplace_back(Str(line));
    }
    return Status::Ok();
  };
  const JsonValue* zero = Member(stack, "0");
  if (zero == nullptr || !PythonTruthy(*zero)) {  // old format: {entry: [lines]}
    for (const auto& m : stack.GetObject()) {
      std::vector<std::string> lines;
      MSP_RETURN_IF_ERROR(lines_of(m.value, &lines));
      info.stack[std::string(Str(m.name))] = std::move(lines);
    }
    return info;
  }
  for (const auto& m : stack.GetObject()) {  // new format: {"0": [[entries], [lines]], ...}
    const JsonValue& group = m.value;
    if (!group.IsArray() || group.Size() != 2 || !group[0].IsArray()) continue;
    std::vector<std::string> lines;
    MSP_RETURN_IF_ERROR(lines_of(group[1], &lines));
    for (const auto& api : group[0].GetArray()) {
      if (api.IsString()) info.stack[std::string(Str(api))] = lines;
    }
  }
  return info;
}

Result<std::unordered_map<std::string, std::string>> PairLayerEntries(const LayerDumpInfo& target,
                                                                       const LayerDumpInfo& golden,
                                                                       const LayerMapping& rules) {
  MSP_ASSIGN_OR_RETURN(Tree target_tree, BuildTree(target));
  MSP_ASSIGN_OR_RETURN(Tree golden_tree, BuildTree(golden));
  std::unordered_map<std::string, std::string> pairs;
  for (const DataItem& item : target_tree.items) {
    size_t index = 0;
    const std::string scope = ConvertScope(target_tree, item, rules, &index);
    const DataItem* match = Query(golden_tree, scope, item.state, index);
    pairs[item.name] = match != nullptr ? match->name : std::string();
  }
  return pairs;
}

DataMapping LayerDataMapping(const std::unordered_map<std::string, std::string>& entry_pairs,
                             const std::vector<OpRow>& target_rows, const std::vector<OpRow>& golden_rows) {
  std::unordered_map<std::string, std::vector<const OpRow*>> golden_by_api;
  for (const OpRow& row : golden_rows) golden_by_api[row.api].push_back(&row);
  DataMapping mapping;
  for (const OpRow& row : target_rows) {
    std::string golden = "N/A";
    auto pair = entry_pairs.find(row.api);
    if (pair != entry_pairs.end() && !pair->second.empty() && row.name.compare(0, row.api.size(), row.api) == 0) {
      const std::string wanted = pair->second + row.name.substr(row.api.size());
      auto rows = golden_by_api.find(pair->second);
      if (rows != golden_by_api.end()) {
        for (const OpRow* b : rows->second) {
          if (b->name == wanted) golden = wanted;
        }
      }
    }
    mapping.target_to_golden[row.name] = std::move(golden);
  }
  return mapping;
}

}  // namespace msprobe::compare
