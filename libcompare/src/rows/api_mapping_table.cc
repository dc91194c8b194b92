// Our table of MindSpore → PyTorch API facts for -am (docs/compare.md §3.6). Written from what the two
// frameworks name their functions; only the APIs whose dumped name changes are listed, since every
// other API keeps its name (e.g. Tensor.add stays Tensor.add, Functional.relu stays Functional.relu).
// Kept to APIs msprobe's own table maps the same way, so -am keys equal G3's for them.
#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "msprobe/compare/rows/api_mapping.h"

namespace msprobe::compare {
namespace {

// mindspore.ops functions (dumped as Functional.X) whose PyTorch counterpart is the top-level
// torch.X of the same name (dumped as Torch.X), not torch.nn.functional.X. Sorted.
constexpr std::array<std::string_view, 104> kTorchNamespaceFunctions = {
    "abs", "absolute", "acos", "acosh", "add", "addbmm", "addcdiv", "addcmul", "addmm", "addmv",
    "angle", "arange", "arccos", "arccosh", "arcsinh", "arctan", "arctanh", "argmax", "asin",
    "asinh", "atan", "atan2", "atanh", "baddbmm", "bincount", "bitwise_and", "bitwise_or",
    "bitwise_xor", "ceil", "clamp", "clip", "cosh", "cross", "cumprod", "diagonal", "div", "divide",
    "einsum", "erf", "erfc", "exp", "exp2", "expm1", "eye", "flip", "fmod", "full", "gcd",
    "greater", "greater_equal", "hstack", "inner", "inverse", "isinf", "kron", "lcm", "lerp",
    "log1p", "logaddexp", "logical_and", "logical_not", "logical_or", "logical_xor", "lt",
    "masked_select", "matmul", "mm", "mul", "multiply", "neg", "negative", "nonzero", "not_equal",
    "numel", "ones_like", "outer", "permute", "pow", "rand", "randn", "reciprocal", "remainder",
    "reshape", "roll", "round", "rsqrt", "searchsorted", "sign", "sin", "sinh", "square",
    "subtract", "sum", "t", "tan", "topk", "trace", "tril", "trunc", "unbind", "unsqueeze", "where",
    "xlogy", "zeros_like",
};
static_assert(std::is_sorted(kTorchNamespaceFunctions.begin(), kTorchNamespaceFunctions.end()));

// APIs PyTorch names differently (MindSpore name → PyTorch name).
constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kRenamedApis = {{
    {"Functional.bidense", "Functional.bilinear"},   // nn.BiDense ↔ nn.Bilinear
    {"Functional.dense", "Functional.linear"},       // nn.Dense ↔ nn.Linear
    {"Functional.equal", "Torch.eq"},                // element-wise equality
    {"Functional.swapaxes", "Torch.transpose"},
    {"Tensor.asnumpy", "Tensor.numpy"},
    {"Tensor.cauchy", "Tensor.cauchy_"},             // torch has only the in-place sampler
    {"Tensor.equal", "Tensor.eq"},
    {"Tensor.fill_diagonal", "Tensor.fill_diagonal_"},
    {"Tensor.gather_elements", "Tensor.gather"},
    {"Tensor.swapaxes", "Tensor.transpose"},
}};

constexpr std::string_view kFunctionalPrefix = "Functional.";

// The Torch.X names, built once so BuiltinApiTarget can hand out views.
const std::array<std::string, kTorchNamespaceFunctions.size()>& TorchNames() {
  static const auto names = [] {
    std::array<std::string, kTorchNamespaceFunctions.size()> out;
    for (size_t i = 0; i < out.size(); ++i) out[i] = "Torch." + std::string(kTorchNamespaceFunctions[i]);
    return out;
  }();
  return names;
}

}  // namespace

std::optional<std::string_view> BuiltinApiTarget(std::string_view ms_api) {
  for (const auto& [ms, pt] : kRenamedApis) {
    if (ms == ms_api) return pt;
  }
  if (ms_api.substr(0, kFunctionalPrefix.size()) != kFunctionalPrefix) return std::nullopt;
  const std::string_view function = ms_api.substr(kFunctionalPrefix.size());
  auto it = std::lower_bound(kTorchNamespaceFunctions.begin(), kTorchNamespaceFunctions.end(), function);
  if (it == kTorchNamespaceFunctions.end() || *it != function) return std::nullopt;
  return TorchNames()[static_cast<size_t>(it - kTorchNamespaceFunctions.begin())];
}

std::vector<std::pair<std::string, std::string>> BuiltinApiTable() {
  std::vector<std::pair<std::string, std::string>> table;
  for (size_t i = 0; i < kTorchNamespaceFunctions.size(); ++i) {
    table.emplace_back(std::string(kFunctionalPrefix) + std::string(kTorchNamespaceFunctions[i]), TorchNames()[i]);
  }
  for (const auto& [ms, pt] : kRenamedApis) table.emplace_back(ms, pt);
  return table;
}

}  // namespace msprobe::compare
