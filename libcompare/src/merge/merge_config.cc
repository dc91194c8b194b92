#include "msprobe/compare/merge/merge_config.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "msprobe/dump/text/text_file.h"

namespace msprobe::compare {
namespace {

Status ConfigError(const std::string& source, std::string message) {
  return Status::InvalidInput(source, std::move(message));
}

// A list of scalars, or nullopt when `node` is not a list or holds a non-scalar item.
std::optional<std::vector<std::string>> ScalarList(const YAML::Node& node) {
  if (!node.IsSequence()) return std::nullopt;
  std::vector<std::string> items;
  for (const YAML::Node& item : node) {
    if (!item.IsScalar()) return std::nullopt;
    items.push_back(item.Scalar());
  }
  return items;
}

Result<MergeConfig> ParseDocument(const YAML::Node& root, const std::string& source) {
  // yaml.safe_load: an empty document or a bare null is None, which fails `if not config`.
  if (!root.IsDefined() || root.IsNull() || (root.IsMap() && root.size() == 0) ||
      (root.IsSequence() && root.size() == 0) || (root.IsScalar() && root.Scalar().empty())) {
    return ConfigError(source, "config.yaml is empty, please check.");
  }
  if (!root.IsMap()) return ConfigError(source, "The config format of config.yaml is incorrect: expected a mapping "
                                                "with 'api' and 'compare_index', please check.");
  MergeConfig config;
  const YAML::Node api = root["api"];
  // `if not api_list`: missing, null, an empty list or an empty string.
  if (!api || api.IsNull() || (api.IsSequence() && api.size() == 0) || (api.IsScalar() && api.Scalar().empty()) ||
      (api.IsMap() && api.size() == 0)) {
    return ConfigError(source, "The APIs required to merge data were not found.");
  }
  auto apis = ScalarList(api);
  if (!apis) return ConfigError(source, "The config format of 'api' is incorrect, please check.");
  config.apis = std::move(*apis);

  const YAML::Node index = root["compare_index"];
  if (index && !index.IsNull()) {
    auto indexes = ScalarList(index);
    if (!indexes) return ConfigError(source, "The config format of 'compare_index' is incorrect, please check.");
    for (std::string& name : *indexes) {
      if (std::find(config.compare_index.begin(), config.compare_index.end(), name) == config.compare_index.end()) {
        config.compare_index.push_back(std::move(name));
      }
    }
  }

  const YAML::Node factor = root["highlight_factor"];
  if (factor && !factor.IsNull()) {
    double value = 0;
    if (!factor.IsScalar() || !YAML::convert<double>::decode(factor, value) || !std::isfinite(value) || value <= 1) {
      return ConfigError(source, "The config format of 'highlight_factor' is incorrect, please check: it must be a "
                                 "number greater than 1.");
    }
    config.highlight_factor = value;
  }
  return config;
}

}  // namespace

Result<MergeConfig> ParseMergeConfig(std::string_view yaml, const std::string& source) {
  try {
    return ParseDocument(YAML::Load(std::string(yaml)), source);
  } catch (const YAML::Exception& e) {
    const std::string line = e.mark.line >= 0 ? fmt::format("line {}: ", e.mark.line + 1) : std::string();
    return ConfigError(source, fmt::format("The yaml file failed to load: {}{}", line, e.msg));
  }
}

Result<MergeConfig> LoadMergeConfig(const std::string& path) {
  if (!path.ends_with(".yaml")) {
    return ConfigError(path, "The yaml file failed to load: the config path must end in .yaml");
  }
  Result<std::string> text = ReadUtf8TextFile(path);
  if (!text.ok()) {
    const std::string message = "The yaml file failed to load: " + text.status().message();
    return text.status().code() == Code::kNotFound ? Status::NotFound(path, message) : ConfigError(path, message);
  }
  return ParseMergeConfig(*text, path);
}

}  // namespace msprobe::compare
