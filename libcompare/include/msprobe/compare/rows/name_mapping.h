// The user's name mapping files (docs/compare.md §3.6, §3.7): -dm data_mapping.yaml, -cm cell_mapping.yaml,
// -am api_mapping.yaml and -lm layer_mapping.yaml, loaded into plain tables, and the -dm/-cm rules that turn a target
// row name into its compare key. This is the only file that touches yaml-cpp.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe::compare {

// -dm: {target_row_name: golden_row_name}, full row names.
struct DataMapping {
  std::unordered_map<std::string, std::string> target_to_golden;
};

// -cm: {target_cell_name: golden_cell_name} in yaml order (the substring fallback applies them in
// that order). Empty: only the Cell → Module rule.
struct CellMapping {
  std::vector<std::pair<std::string, std::string>> entries;
};

// One entry of a user -am yaml: a MindSpore API, its PyTorch counterpart, and how argument, output
// and parameter indices correspond (ms_args[i] ↔ pt_args[i]). Lists hold the yaml scalars as text.
struct ApiMappingEntry {
  std::string ms_api, pt_api;
  std::vector<std::string> ms_args, pt_args, ms_outputs, pt_outputs, ms_parameters, pt_parameters,
      ms_parameters_grad, pt_parameters_grad;
};

// -am: the built-in MindSpore → PyTorch rules always apply; user entries refine them.
struct ApiMapping {
  std::vector<ApiMappingEntry> user_entries;
};

// -lm (docs/compare.md §3.7): per module class (the MindSpore class of the parent layer, "TopLayer"
// for the model root; the legacy key "Cell" means "TopLayer"), rules renaming a dotted run of
// child names ("fc" or "attn.proj") to the golden's names. Rules are grouped by their first
// component and held longest first (yaml order among equal lengths), as msprobe tries them.
struct LayerRule {
  std::string origin, target;
  size_t level = 1;  // components in `origin`
};
struct LayerMapping {
  std::unordered_map<std::string, std::unordered_map<std::string, std::vector<LayerRule>>> by_class;
};

Result<DataMapping> LoadDataMapping(const std::string& yaml_path);
// "" gives no rules (the bare `-lm` flag): only the structural pairing.
Result<LayerMapping> LoadLayerMapping(const std::string& yaml_path);
Result<LayerMapping> ParseLayerMapping(std::string_view yaml, const std::string& source);
// "" gives the empty mapping (rules only), as `-cm` without a file does.
Result<CellMapping> LoadCellMapping(const std::string& yaml_path);
// "" gives the built-in table only, as `-am` without a file does.
Result<ApiMapping> LoadApiMapping(const std::string& yaml_path);

// The same from yaml text; `source` names it in errors (fuzzing and tests).
Result<DataMapping> ParseDataMapping(std::string_view yaml, const std::string& source);
Result<CellMapping> ParseCellMapping(std::string_view yaml, const std::string& source);
Result<ApiMapping> ParseApiMapping(std::string_view yaml, const std::string& source);

// -dm key of a target row: mapping.get(name, name).
std::string DataMappedKey(const std::string& target_name, const DataMapping& mapping);

// -cm key of a target row (msprobe `process_cell_mapping`): "N/A" for names with neither
// ".forward."/".backward." nor a parameters_grad component; otherwise the first "Cell" becomes
// "Module" and the cell name is mapped (exact entry, else each entry substring-replaced once).
std::string CellMappedKey(std::string_view target_name, const CellMapping& mapping);

}  // namespace msprobe::compare
