// Our table of op aliases for --align (docs/compare.md §3.8): names, after OpIdentity's normalization,
// that PyTorch, torch_npu and MindSpore give one op. Written from the frameworks' own documentation of
// their aliases (torch.divide is torch.div, torch.clip is torch.clamp, ...) and of their counterparts
// (mindspore.nn.Dense is torch.nn.Linear, mindspore.ops.flash_attention_score is
// torch_npu.npu_fusion_attention). Only names that differ are listed.
#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "rows/op_identity_internal.h"

namespace msprobe::compare::internal {
namespace {

// alias → the name it stands for. Sorted by alias.
constexpr std::array<std::pair<std::string_view, std::string_view>, 31> kAliases = {{
    {"absolute", "abs"},
    {"arccos", "acos"},
    {"arccosh", "acosh"},
    {"arcsin", "asin"},
    {"arcsinh", "asinh"},
    {"arctan", "atan"},
    {"arctan2", "atan2"},
    {"arctanh", "atanh"},
    {"bidense", "bilinear"},              // mindspore.nn.BiDense / torch.nn.Bilinear
    {"cell_dict", "module_dict"},         // MindSpore containers / PyTorch's
    {"cell_list", "module_list"},
    {"clip", "clamp"},
    {"concat", "cat"},
    {"concatenate", "cat"},
    {"dense", "linear"},                  // mindspore.nn.Dense / torch.nn.Linear
    {"divide", "div"},
    {"fusion_attention", "flash_attention_score"},  // torch_npu.npu_fusion_attention (npu_ dropped)
    {"greater", "gt"},
    {"greater_equal", "ge"},
    {"less", "lt"},
    {"less_equal", "le"},
    {"moveaxis", "movedim"},
    {"multiply", "mul"},
    {"negative", "neg"},
    {"not_equal", "ne"},
    {"sequential_cell", "sequential"},
    {"subtract", "sub"},
    {"swapaxes", "transpose"},
    {"swapdims", "transpose"},
    {"true_divide", "div"},
    {"truediv", "div"},                   // Tensor.__truediv__
}};
static_assert(std::is_sorted(kAliases.begin(), kAliases.end()));

}  // namespace

std::string_view OpAlias(std::string_view op) {
  const auto it = std::lower_bound(kAliases.begin(), kAliases.end(), op,
                                   [](const auto& entry, std::string_view key) { return entry.first < key; });
  return it != kAliases.end() && it->first == op ? it->second : op;
}

}  // namespace msprobe::compare::internal
