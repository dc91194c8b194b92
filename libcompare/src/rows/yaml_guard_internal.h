// yaml-cpp's errors as Status: the yaml configurations of compare (mappings, right_matmul) read through
// these, so a bad file is one line naming the file and the line.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

#include <fmt/format.h>

#include "msprobe/dump/util/status.h"

namespace msprobe::compare::internal {

// yaml-cpp marks are 0-based and -1 when unknown.
inline std::string LineOf(const YAML::Mark& mark) {
  return mark.line >= 0 ? fmt::format("line {}: ", mark.line + 1) : std::string();
}

inline Status YamlError(const std::string& source, const YAML::Node& node, std::string_view problem) {
  return Status::InvalidInput(source, LineOf(node.Mark()) + std::string(problem));
}

// yaml-cpp reports errors by exception; every use of it runs inside this guard, the one place
// they become a Status.
template <class Body>
auto GuardYaml(const std::string& source, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const YAML::Exception& e) {
    return Status::InvalidInput(source, LineOf(e.mark) + "invalid yaml: " + e.msg);
  }
}

}  // namespace msprobe::compare::internal
