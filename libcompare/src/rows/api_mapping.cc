#include "msprobe/compare/rows/api_mapping.h"

#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "msprobe/dump/text/python_format.h"

namespace msprobe::compare {
namespace {

// msprobe's API name: the first two components of a row name ("Functional.conv2d"); nullopt for
// a name with fewer (msprobe raises there; we leave such rows alone).
std::optional<std::string> ApiNameOf(std::string_view name) {
  const size_t first = name.find('.');
  if (first == std::string_view::npos) return std::nullopt;
  const size_t second = name.find('.', first + 1);
  return std::string(name.substr(0, second));
}

std::string_view RemovePrefix(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix ? s.substr(prefix.size()) : s;
}

bool ListsPairUp(const ApiMappingEntry& e) {
  return e.ms_args.size() == e.pt_args.size() && e.ms_outputs.size() == e.pt_outputs.size() &&
         e.ms_parameters.size() == e.pt_parameters.size() &&
         e.ms_parameters_grad.size() == e.pt_parameters_grad.size();
}

// The key of one row of a mapped API: its index after `<api key><pattern>` is looked up in `ms`
// and the name rewritten with the `pt` index at the same position; "abandoned" when not listed.
std::string UserKey(const std::string& op_name, const std::string& origin, std::string_view pattern,
                    const std::vector<std::string>& ms, const std::vector<std::string>& pt) {
  const std::string prefix = origin + std::string(pattern);
  const std::string_view index = RemovePrefix(op_name, prefix);
  std::optional<std::string> key;
  // Every listed position is tried and the last hit wins, as in msprobe's loop.
  for (size_t i = 0; i < ms.size(); ++i) {
    if (index == ms[i]) key = PythonReplace(op_name, std::string(pattern) + ms[i], std::string(pattern) + pt[i]);
  }
  return key ? *key : op_name + "abandoned";
}

}  // namespace

std::string BuiltinApiMappedKey(const std::string& target_name) {
  const std::optional<std::string> api = ApiNameOf(target_name);
  if (!api) return target_name;
  const std::string_view class_name = std::string_view(*api).substr(0, api->find('.'));
  // msprobe replaces every occurrence in the whole name, not only the leading component.
  if (class_name == "Mint") return PythonReplace(target_name, "Mint", "Torch");
  if (class_name == "MintFunctional") return PythonReplace(target_name, "MintFunctional", "Functional");
  if (auto target = BuiltinApiTarget(*api)) return PythonReplace(target_name, *api, *target);
  return target_name;
}

void ApplyUserApiMapping(const ApiMapping& mapping, const std::vector<OpRow>& target,
                         const std::vector<OpRow>& golden, std::vector<std::string>* target_keys) {
  if (mapping.user_entries.empty()) return;
  std::unordered_map<std::string, std::vector<size_t>> target_rows_by_api;
  for (size_t row = 0; row < target.size(); ++row) {
    if (auto api = ApiNameOf(target[row].name)) target_rows_by_api[*api].push_back(row);
  }
  std::unordered_set<std::string> golden_apis;
  for (const OpRow& row : golden) {
    if (auto api = ApiNameOf(row.name)) golden_apis.insert(*api);
  }

  for (const ApiMappingEntry& entry : mapping.user_entries) {
    // msprobe skips (with a warning) an entry whose paired lists differ in length.
    if (!ListsPairUp(entry)) continue;
    auto rows = target_rows_by_api.find(entry.ms_api);
    if (rows == target_rows_by_api.end() || !golden_apis.contains(entry.pt_api)) continue;
    for (size_t row : rows->second) {
      const OpRow& r = target[row];
      const std::string op_name = PythonReplace(r.name, entry.ms_api, entry.pt_api, 1);
      const std::string origin = PythonReplace(r.api, entry.ms_api, entry.pt_api, 1);
      std::string& key = (*target_keys)[row];
      switch (r.state) {
        case RowState::kInput: key = UserKey(op_name, origin, ".input.", entry.ms_args, entry.pt_args); break;
        // msprobe's code reads "ms_output"/"pt_output" here, keys its own length check and docs call
        // ms_outputs/pt_outputs (with the documented keys it fails); we read the documented keys.
        case RowState::kOutput:
          key = UserKey(op_name, origin, ".output.", entry.ms_outputs, entry.pt_outputs);
          break;
        case RowState::kParameters:
          key = UserKey(op_name, origin, ".parameters.", entry.ms_parameters, entry.pt_parameters);
          break;
        case RowState::kParametersGrad:
          key = UserKey(op_name, origin, ".parameters_grad.", entry.ms_parameters_grad, entry.pt_parameters_grad);
          break;
        case RowState::kDebug:  // debug.json has no API structure to remap; msprobe raises here
          break;
      }
    }
  }
}

}  // namespace msprobe::compare
