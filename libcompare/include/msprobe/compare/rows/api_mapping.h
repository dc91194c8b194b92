// -am: MindSpore → PyTorch API renaming of target compare keys (docs/compare.md §3.6). The built-in rules
// (Mint.* → Torch.*, MintFunctional.* → Functional.*, and our table of API facts) apply to every
// target row; user entries then remap argument/output/parameter indices of their API's rows.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "msprobe/compare/rows/name_mapping.h"
#include "msprobe/compare/table/op_row.h"

namespace msprobe::compare {

// The PyTorch API ("Torch.abs") that our table gives for a MindSpore API ("Functional.abs"), or
// nullopt when the API keeps its name.
std::optional<std::string_view> BuiltinApiTarget(std::string_view ms_api);
// Every table entry whose name changes, as (MindSpore API, PyTorch API).
std::vector<std::pair<std::string, std::string>> BuiltinApiTable();

// The built-in key of a target row name (msprobe `process_internal_api_mapping`).
std::string BuiltinApiMappedKey(const std::string& target_name);

// Applies the user entries of `mapping` to `target_keys` (one per target row, already holding the
// built-in keys), as msprobe `modify_compare_data_with_user_mapping` does. An entry is used only
// when its paired index lists have equal lengths and both its APIs occur in the dumps. A row of
// a mapped API whose index is not listed gets its name + "abandoned", which matches nothing.
void ApplyUserApiMapping(const ApiMapping& mapping, const std::vector<OpRow>& target,
                         const std::vector<OpRow>& golden, std::vector<std::string>* target_keys);

}  // namespace msprobe::compare
