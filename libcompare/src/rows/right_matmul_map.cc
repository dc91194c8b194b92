#include "msprobe/compare/rows/right_matmul_map.h"

#include <fmt/format.h>

#include "msprobe/dump/text/text_file.h"
#include "rows/yaml_guard_internal.h"

namespace msprobe::compare {
namespace {

using internal::GuardYaml;
using internal::YamlError;

// type(x).__name__ of what yaml.safe_load makes of a node that is not a list.
std::string PythonTypeName(const YAML::Node& node) {
  if (node.IsMap()) return "dict";
  if (node.IsNull()) return "NoneType";
  return "str";  // scalars: msprobe's message names what the yaml held, a string in practice
}

// {path: [data_name, ...]} reversed into data_name → path.
Status ReadTensorMap(const YAML::Node& root, const char* field, const std::string& source,
                     std::unordered_map<std::string, std::string>* out, std::vector<std::string>* warnings) {
  const YAML::Node map = root[field];
  if (!map.IsDefined() || map.IsNull()) return Status::Ok();
  if (!map.IsMap()) return YamlError(source, map, fmt::format("{} must map calibration tensor paths to lists", field));
  for (const auto& item : map) {
    if (!item.first.IsScalar()) return YamlError(source, item.first, fmt::format("{} keys must be paths", field));
    const std::string& path = item.first.Scalar();
    if (!item.second.IsSequence()) {
      warnings->push_back(fmt::format("{}: invalid data_names for tensor path '{}': expected a list, got {}; skipped",
                                      source, path, PythonTypeName(item.second)));
      continue;
    }
    for (const auto& name : item.second) {
      if (!name.IsScalar()) return YamlError(source, name, fmt::format("{} lists must hold data names", field));
      (*out)[name.Scalar()] = path;
    }
  }
  return Status::Ok();
}

}  // namespace

Result<RightMatmulMap> ParseRightMatmulYaml(std::string_view yaml, const std::string& source,
                                            std::vector<std::string>* warnings) {
  return GuardYaml(source, [&]() -> Result<RightMatmulMap> {
    const YAML::Node root = YAML::Load(std::string(yaml));
    RightMatmulMap map;
    map.source = source;
    if (root.IsNull()) return map;
    if (!root.IsMap()) return YamlError(source, root, "a tensor post-processing yaml must be a mapping");
    const YAML::Node mode = root["mode"];
    const bool scalar = mode.IsDefined() && mode.IsScalar();  // Type() throws on an undefined node
    if (!scalar || mode.Scalar() != "right_matmul") {
      return YamlError(source, mode.IsDefined() ? mode : root,
                       fmt::format("unknown tensor postprocess mode {} (only right_matmul)",
                                   scalar ? mode.Scalar() : std::string("None")));
    }
    MSP_RETURN_IF_ERROR(ReadTensorMap(root, "target_tensor_map", source, &map.target, warnings));
    MSP_RETURN_IF_ERROR(ReadTensorMap(root, "golden_tensor_map", source, &map.golden, warnings));
    return map;
  });
}

Result<RightMatmulMap> LoadRightMatmulYaml(const std::string& path, std::vector<std::string>* warnings) {
  MSP_ASSIGN_OR_RETURN(std::string text, ReadUtf8TextFile(path));
  return ParseRightMatmulYaml(text, path, warnings);
}

}  // namespace msprobe::compare
