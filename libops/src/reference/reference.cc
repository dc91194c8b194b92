// The registry: API names as msprobe records them (formats.md §1.2: {Prefix}.{api}) and their
// references. Kept in one table so docs/ops.md and QuerySupport cannot drift apart.
#include "msprobe/ops/reference/reference.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "reference/op_kernels_internal.h"

namespace msprobe::ops {
namespace {

using internal::Binary;
using internal::OpCall;
using internal::Outputs;
using internal::Unary;
using OpFn = Result<Outputs> (*)(const OpCall&);

struct OpEntry {
  std::string_view name;
  OpFn run;
};

template <Unary op>
Result<Outputs> UnaryFn(const OpCall& c) { return internal::UnaryOp(c, op); }
template <Binary op, bool reflected, bool inplace>
Result<Outputs> BinaryFn(const OpCall& c) { return internal::BinaryOp(c, op, reflected, inplace); }

// The forms of one arithmetic op: torch.add, Tensor.add, __add__, __radd__, add_, __iadd__.
#define MSP_BINARY_FORMS(op, kind, dunder)                                                    \
  {"Torch." op, BinaryFn<kind, false, false>}, {"Tensor." op, BinaryFn<kind, false, false>},  \
  {"Tensor.__" dunder "__", BinaryFn<kind, false, false>},                                    \
  {"Tensor.__r" dunder "__", BinaryFn<kind, true, false>},                                    \
  {"Tensor." op "_", BinaryFn<kind, false, true>}, {"Tensor.__i" dunder "__", BinaryFn<kind, false, true>}

constexpr OpEntry kOps[] = {
    {"Functional.linear", internal::LinearOp},
    {"Torch.matmul", internal::MatmulOp},
    {"Tensor.matmul", internal::MatmulOp},
    {"Tensor.__matmul__", internal::MatmulOp},
    {"Torch.mm", internal::MmOp},
    {"Tensor.mm", internal::MmOp},
    {"Torch.bmm", internal::BmmOp},
    {"Tensor.bmm", internal::BmmOp},
    {"Functional.conv2d", internal::Conv2dOp},
    {"Functional.layer_norm", internal::LayerNormOp},
    {"Torch.npu_rms_norm", internal::NpuRmsNormOp},
    {"NPU.npu_rms_norm", internal::NpuRmsNormOp},
    {"Functional.rms_norm", internal::RmsNormOp},
    {"Torch.rms_norm", internal::RmsNormOp},
    {"Functional.softmax", [](const OpCall& c) { return internal::SoftmaxOp(c, false, true); }},
    {"Torch.softmax", [](const OpCall& c) { return internal::SoftmaxOp(c, false, false); }},
    {"Tensor.softmax", [](const OpCall& c) { return internal::SoftmaxOp(c, false, false); }},
    {"Functional.log_softmax", [](const OpCall& c) { return internal::SoftmaxOp(c, true, true); }},
    {"Torch.log_softmax", [](const OpCall& c) { return internal::SoftmaxOp(c, true, false); }},
    {"Tensor.log_softmax", [](const OpCall& c) { return internal::SoftmaxOp(c, true, false); }},
    {"Functional.gelu", internal::GeluOp},
    {"Functional.silu", UnaryFn<Unary::kSilu>},
    {"Functional.relu", UnaryFn<Unary::kRelu>},
    {"Torch.relu", UnaryFn<Unary::kRelu>},
    {"Tensor.relu", UnaryFn<Unary::kRelu>},
    {"Functional.sigmoid", UnaryFn<Unary::kSigmoid>},
    {"Torch.sigmoid", UnaryFn<Unary::kSigmoid>},
    {"Tensor.sigmoid", UnaryFn<Unary::kSigmoid>},
    {"Functional.tanh", UnaryFn<Unary::kTanh>},
    {"Torch.tanh", UnaryFn<Unary::kTanh>},
    {"Tensor.tanh", UnaryFn<Unary::kTanh>},
    {"Torch.exp", UnaryFn<Unary::kExp>},
    {"Tensor.exp", UnaryFn<Unary::kExp>},
    {"Torch.log", UnaryFn<Unary::kLog>},
    {"Tensor.log", UnaryFn<Unary::kLog>},
    {"Torch.sqrt", UnaryFn<Unary::kSqrt>},
    {"Tensor.sqrt", UnaryFn<Unary::kSqrt>},
    {"Torch.rsqrt", UnaryFn<Unary::kRsqrt>},
    {"Tensor.rsqrt", UnaryFn<Unary::kRsqrt>},
    MSP_BINARY_FORMS("add", Binary::kAdd, "add"),
    MSP_BINARY_FORMS("sub", Binary::kSub, "sub"),
    MSP_BINARY_FORMS("mul", Binary::kMul, "mul"),
    MSP_BINARY_FORMS("div", Binary::kDiv, "truediv"),
    {"Tensor.__div__", BinaryFn<Binary::kDiv, false, false>},  // the Python 2 names torch still defines
    {"Tensor.__rdiv__", BinaryFn<Binary::kDiv, true, false>},
    {"Tensor.__idiv__", BinaryFn<Binary::kDiv, false, true>},
    {"Torch.sum", [](const OpCall& c) { return internal::SumOp(c, false); }},
    {"Tensor.sum", [](const OpCall& c) { return internal::SumOp(c, false); }},
    {"Torch.mean", [](const OpCall& c) { return internal::SumOp(c, true); }},
    {"Tensor.mean", [](const OpCall& c) { return internal::SumOp(c, true); }},
    {"Functional.embedding", internal::EmbeddingOp},
    {"Functional.dropout", internal::DropoutOp},
    {"Functional.scaled_dot_product_attention", internal::SdpaOp},
    {"Torch.cat", [](const OpCall& c) { return internal::CatOp(c, false); }},
    {"Torch.stack", [](const OpCall& c) { return internal::CatOp(c, true); }},
    {"Torch.transpose", internal::TransposeOp},
    {"Tensor.transpose", internal::TransposeOp},
    {"Torch.reshape", [](const OpCall& c) { return internal::ReshapeOp(c, false); }},
    {"Tensor.reshape", [](const OpCall& c) { return internal::ReshapeOp(c, true); }},
    {"Tensor.view", [](const OpCall& c) { return internal::ReshapeOp(c, true); }},
    {"Torch.permute", [](const OpCall& c) { return internal::PermuteOp(c, false); }},
    {"Tensor.permute", [](const OpCall& c) { return internal::PermuteOp(c, true); }},
};

#undef MSP_BINARY_FORMS

const OpEntry* FindOp(std::string_view api) {
  for (const OpEntry& e : kOps) {
    if (e.name == api) return &e;
  }
  return nullptr;
}

bool IsCount(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// The ".{n}.{forward|backward}" suffix of an API entry name, split off; direction "" when absent.
std::pair<std::string_view, std::string_view> SplitSuffix(std::string_view name) {
  const size_t last = name.rfind('.');
  if (last == std::string_view::npos) return {name, ""};
  const std::string_view direction = name.substr(last + 1);
  if (direction != "forward" && direction != "backward") return {name, ""};
  const size_t count = name.rfind('.', last - 1);
  if (count == std::string_view::npos || !IsCount(name.substr(count + 1, last - count - 1))) return {name, ""};
  return {name.substr(0, count), direction};
}

}  // namespace

std::string_view ApiName(std::string_view name) { return SplitSuffix(name).first; }

Support QuerySupport(std::string_view name) {
  const auto [api, direction] = SplitSuffix(name);
  if (direction == "backward") return {false, "backward entries have no reference (forward only)"};
  if (api.starts_with("Module.") || api.starts_with("Cell.")) return {false, "modules have no reference, only API calls"};
  if (FindOp(api) == nullptr) return {false, fmt::format("no float64 reference for {}", api)};
  return {true, ""};
}

std::vector<std::string> SupportedApis() {
  std::vector<std::string> names;
  for (const OpEntry& e : kOps) names.emplace_back(e.name);
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::vector<Fp64Tensor>> RunReference(std::string_view api, const CallArgs& args, const InputLoader& load) {
  const Support support = QuerySupport(api);
  if (!support.supported) return Status::Unsupported(std::string(api), support.reason);
  const std::string_view name = ApiName(api);
  return FindOp(name)->run(OpCall(name, args, load));
}

}  // namespace msprobe::ops
