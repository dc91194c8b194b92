#include "msprobe/compare/rows/name_mapping.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "msprobe/dump/text/python_format.h"
#include "msprobe/dump/text/text_file.h"
#include "rows/yaml_guard_internal.h"

namespace msprobe::compare {
namespace {

using internal::GuardYaml;
using internal::YamlError;

// A flat {scalar: scalar} map in document order; a repeated key keeps its first position and its
// last value, as a Python dict built by yaml.safe_load does.
Result<std::vector<std::pair<std::string, std::string>>> ParseFlatMap(std::string_view yaml,
                                                                       const std::string& source,
                                                                       std::string_view what) {
  const YAML::Node root = YAML::Load(std::string(yaml));
  std::vector<std::pair<std::string, std::string>> entries;
  std::unordered_map<std::string, size_t> position;  // data mappings can hold many thousand names
  if (root.IsNull()) return entries;
  if (!root.IsMap()) return YamlError(source, root, fmt::format("{} must be a mapping of names", what));
  for (const auto& item : root) {
    if (!item.first.IsScalar() || !item.second.IsScalar()) {
      return YamlError(source, item.first, fmt::format("{} entries must map a name to a name", what));
    }
    const std::string& key = item.first.Scalar();
    auto [at, inserted] = position.emplace(key, entries.size());
    if (inserted) entries.emplace_back(key, item.second.Scalar());
    else entries[at->second].second = item.second.Scalar();
  }
  return entries;
}

Status ReadScalarList(const std::string& source, const YAML::Node& entry, const char* field,
                      std::vector<std::string>* out) {
  const YAML::Node list = entry[field];
  if (!list.IsDefined() || list.IsNull()) return Status::Ok();
  if (!list.IsSequence()) return YamlError(source, list, fmt::format("{} must be a list", field));
  for (const auto& item : list) {
    if (!item.IsScalar()) return YamlError(source, item, fmt::format("{} items must be names or indices", field));
    out->push_back(item.Scalar());
  }
  return Status::Ok();
}

Status ReadScalar(const std::string& source, const YAML::Node& entry, const char* field, std::string* out) {
  const YAML::Node value = entry[field];
  if (!value.IsDefined() || value.IsNull()) return Status::Ok();
  if (!value.IsScalar()) return YamlError(source, value, fmt::format("{} must be an api name", field));
  *out = value.Scalar();
  return Status::Ok();
}

Result<ApiMappingEntry> ParseApiEntry(const YAML::Node& node, const std::string& source) {
  if (!node.IsMap()) return YamlError(source, node, "api mapping entries must be mappings");
  ApiMappingEntry entry;
  MSP_RETURN_IF_ERROR(ReadScalar(source, node, "ms_api", &entry.ms_api));
  MSP_RETURN_IF_ERROR(ReadScalar(source, node, "pt_api", &entry.pt_api));
  MSP_RETURN_IF_ERROR(ReadScalarList(source, node, "ms_args", &entry.ms_args));
  MSP_RETURN_IF_ERROR(ReadScalarList(source, node, "pt_args", &entry.pt_args));
  MSP_RETURN_IF_ERROR(ReadScalarList(source, node, "ms_outputs", &entry.ms_outputs));
  MSP_RETURN_IF_ERROR(ReadScalarList(source, node, "pt_outputs", &entry.pt_outputs));
  MSP_RETURN_IF_ERROR(ReadScalarList(source, node, "ms_parameters", &entry.ms_parameters));
  MSP_RETURN_IF_ERROR(ReadScalarList(source, node, "pt_parameters", &entry.pt_parameters));
  MSP_RETURN_IF_ERROR(ReadScalarList(source, node, "ms_parameters_grad", &entry.ms_parameters_grad));
  MSP_RETURN_IF_ERROR(ReadScalarList(source, node, "pt_parameters_grad", &entry.pt_parameters_grad));
  return entry;
}

}  // namespace

Result<DataMapping> ParseDataMapping(std::string_view yaml, const std::string& source) {
  return GuardYaml(source, [&]() -> Result<DataMapping> {
    MSP_ASSIGN_OR_RETURN(auto entries, ParseFlatMap(yaml, source, "data mapping"));
    DataMapping mapping;
    for (auto& [target, golden] : entries) mapping.target_to_golden.emplace(std::move(target), std::move(golden));
    return mapping;
  });
}

Result<CellMapping> ParseCellMapping(std::string_view yaml, const std::string& source) {
  return GuardYaml(source, [&]() -> Result<CellMapping> {
    MSP_ASSIGN_OR_RETURN(auto entries, ParseFlatMap(yaml, source, "cell mapping"));
    return CellMapping{std::move(entries)};
  });
}

Result<ApiMapping> ParseApiMapping(std::string_view yaml, const std::string& source) {
  return GuardYaml(source, [&]() -> Result<ApiMapping> {
    const YAML::Node root = YAML::Load(std::string(yaml));
    ApiMapping mapping;
    if (root.IsNull()) return mapping;
    if (!root.IsSequence()) return YamlError(source, root, "api mapping must be a list of api entries");
    for (const auto& node : root) {
      MSP_ASSIGN_OR_RETURN(ApiMappingEntry entry, ParseApiEntry(node, source));
      mapping.user_entries.push_back(std::move(entry));
    }
    return mapping;
  });
}

Result<LayerMapping> ParseLayerMapping(std::string_view yaml, const std::string& source) {
  return GuardYaml(source, [&]() -> Result<LayerMapping> {
    const YAML::Node root = YAML::Load(std::string(yaml));
    LayerMapping mapping;
    if (root.IsNull()) return mapping;
    if (!root.IsMap()) return YamlError(source, root, "layer mapping must map class names to {name: name} rules");
    // Document order, a repeated key keeping its last value (yaml.safe_load); "Cell" is "TopLayer"
    // and replaces an explicit "TopLayer" entry, as msprobe's update_keys_in_place does.
    std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>> classes;
    for (const auto& item : root) {
      if (!item.first.IsScalar()) return YamlError(source, item.first, "layer mapping class names must be names");
      if (!item.second.IsMap()) {
        return YamlError(source, item.second, "layer mapping: each class must map attribute names to names");
      }
      std::vector<std::pair<std::string, std::string>> rules;
      std::unordered_map<std::string, size_t> position;
      for (const auto& rule : item.second) {
        if (!rule.first.IsScalar() || !rule.second.IsScalar()) {
          return YamlError(source, rule.first, "layer mapping rules must map a name to a name");
        }
        auto [at, inserted] = position.emplace(rule.first.Scalar(), rules.size());
        if (inserted) rules.emplace_back(rule.first.Scalar(), rule.second.Scalar());
        else rules[at->second].second = rule.second.Scalar();
      }
      std::string name = item.first.Scalar();
      auto same = std::find_if(classes.begin(), classes.end(), [&](const auto& c) { return c.first == name; });
      if (same != classes.end()) same->second = std::move(rules);
      else classes.emplace_back(std::move(name), std::move(rules));
    }
    auto cell = std::find_if(classes.begin(), classes.end(), [](const auto& c) { return c.first == "Cell"; });
    if (cell != classes.end()) {
      auto rules = std::move(cell->second);
      classes.erase(cell);
      auto top = std::find_if(classes.begin(), classes.end(), [](const auto& c) { return c.first == "TopLayer"; });
      if (top != classes.end()) top->second = std::move(rules);
      else classes.emplace_back("TopLayer", std::move(rules));
    }
    for (auto& [name, rules] : classes) {
      auto& by_prefix = mapping.by_class[name];
      for (auto& [origin, target] : rules) {
        const size_t level = static_cast<size_t>(std::count(origin.begin(), origin.end(), '.')) + 1;
        const std::string prefix = origin.substr(0, origin.find('.'));
        by_prefix[prefix].push_back(LayerRule{origin, target, level});
      }
      for (auto& [prefix, list] : by_prefix) {
        std::stable_sort(list.begin(), list.end(), [](const LayerRule& a, const LayerRule& b) { return a.level > b.level; });
      }
    }
    return mapping;
  });
}

Result<LayerMapping> LoadLayerMapping(const std::string& yaml_path) {
  if (yaml_path.empty()) return LayerMapping{};
  MSP_ASSIGN_OR_RETURN(std::string text, ReadUtf8TextFile(yaml_path));
  return ParseLayerMapping(text, yaml_path);
}

Result<DataMapping> LoadDataMapping(const std::string& yaml_path) {
  MSP_ASSIGN_OR_RETURN(std::string text, ReadUtf8TextFile(yaml_path));
  return ParseDataMapping(text, yaml_path);
}

Result<CellMapping> LoadCellMapping(const std::string& yaml_path) {
  if (yaml_path.empty()) return CellMapping{};
  MSP_ASSIGN_OR_RETURN(std::string text, ReadUtf8TextFile(yaml_path));
  return ParseCellMapping(text, yaml_path);
}

Result<ApiMapping> LoadApiMapping(const std::string& yaml_path) {
  if (yaml_path.empty()) return ApiMapping{};
  MSP_ASSIGN_OR_RETURN(std::string text, ReadUtf8TextFile(yaml_path));
  return ParseApiMapping(text, yaml_path);
}

std::string DataMappedKey(const std::string& target_name, const DataMapping& mapping) {
  auto it = mapping.target_to_golden.find(target_name);
  return it == mapping.target_to_golden.end() ? target_name : it->second;
}

std::string CellMappedKey(std::string_view target_name, const CellMapping& mapping) {
  static constexpr std::string_view kNotApplicable = "N/A";
  if (target_name.empty()) return std::string(kNotApplicable);
  bool has_params_grad = false;
  for (size_t begin = 0; begin <= target_name.size();) {
    const size_t end = std::min(target_name.find('.', begin), target_name.size());
    if (target_name.substr(begin, end - begin) == "parameters_grad") has_params_grad = true;
    begin = end + 1;
  }
  const bool has_direction = target_name.find(".forward.") != std::string_view::npos ||
                             target_name.find(".backward.") != std::string_view::npos;
  if (!has_params_grad && !has_direction) return std::string(kNotApplicable);

  // msprobe replaces the first "Cell" substring anywhere, not the first component.
  std::string key = PythonReplace(target_name, "Cell", "Module", 1);
  if (mapping.entries.empty()) return key;

  // The cell name: after the first '.', up to the leftmost .forward./.backward./.parameters_grad.
  const size_t dot = key.find('.');
  const std::string_view rest = dot == std::string::npos ? std::string_view(key) : std::string_view(key).substr(dot + 1);
  size_t end = rest.size();
  for (std::string_view word : {".forward.", ".backward.", ".parameters_grad."}) {
    end = std::min(end, rest.find(word));
  }
  const std::string cell_name(rest.substr(0, end));

  std::optional<std::string> exact;
  for (const auto& [target, golden] : mapping.entries) {
    if (target == cell_name) exact = golden;
  }
  std::string new_cell_name = cell_name;
  if (exact) {
    new_cell_name = *exact;
  } else {
    // G3's fallback: each yaml key found in the cell name is replaced once, in yaml order.
    for (const auto& [target, golden] : mapping.entries) {
      if (new_cell_name.find(target) != std::string::npos) {
        new_cell_name = PythonReplace(new_cell_name, target, golden, 1);
      }
    }
  }
  if (new_cell_name != cell_name) key = PythonReplace(key, cell_name, new_cell_name, 1);
  return key;
}

}  // namespace msprobe::compare
