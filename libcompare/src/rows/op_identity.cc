#include "rows/op_identity_internal.h"

#include <array>
#include <cctype>

#include "msprobe/compare/rows/api_mapping.h"

namespace msprobe::compare::internal {
namespace {

constexpr std::string_view kModule = "Module.", kCell = "Cell.", kParametersGrad = ".parameters_grad";

bool IsModule(std::string_view op) { return op.starts_with(kModule) || op.starts_with(kCell); }

// The binary operators whose reflected (__radd__) and in-place (__iadd__) dunders are the same op.
bool IsBinaryOperator(std::string_view op) {
  static constexpr std::array<std::string_view, 14> kOperators = {
      "add", "sub", "mul", "div", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor", "lshift", "rshift"};
  for (std::string_view known : kOperators) {
    if (known == op) return true;
  }
  return false;
}

// "__radd__" → "add", "__getitem__" → "getitem", "add_" → "add"; other names as they are.
std::string_view Undecorated(std::string_view name) {
  if (name.size() > 4 && name.starts_with("__") && name.ends_with("__")) {
    const std::string_view inner = name.substr(2, name.size() - 4);
    if ((inner.front() == 'r' || inner.front() == 'i') && IsBinaryOperator(inner.substr(1))) return inner.substr(1);
    return inner;
  }
  if (name.size() > 1 && name.back() == '_') name.remove_suffix(1);
  return name;
}

bool IsUpper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }
bool IsLowerOrDigit(char c) { return std::islower(static_cast<unsigned char>(c)) != 0 || std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Lower snake case: "RmsNorm" → "rms_norm", "RMSNorm" → "rms_norm", "Conv2d" → "conv2d".
std::string SnakeCase(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 4);
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (IsUpper(c) && i > 0 && name[i - 1] != '_') {
      const bool after_lower = IsLowerOrDigit(name[i - 1]);
      const bool acronym_end = IsUpper(name[i - 1]) && i + 1 < name.size() && IsLowerOrDigit(name[i + 1]);
      if (after_lower || acronym_end) out += '_';
    }
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// The prefixes a vendor puts before an op it fuses or ports (torch_npu.npu_rms_norm, FusedRMSNorm).
std::string_view WithoutVendorPrefix(std::string_view op) {
  for (std::string_view prefix : {"npu_", "fused_"}) {
    if (op.starts_with(prefix) && op.size() > prefix.size()) op.remove_prefix(prefix.size());
  }
  return op;
}

std::string Normalized(std::string_view name) {
  const std::string snake = SnakeCase(Undecorated(name));
  return std::string(OpAlias(WithoutVendorPrefix(snake)));
}

// A module's class: "Module.layers.0.fc.Linear" → "Linear" (also before ".parameters_grad").
std::string_view ModuleClass(std::string_view op) {
  if (op.ends_with(kParametersGrad)) op.remove_suffix(kParametersGrad.size());
  const size_t dot = op.rfind('.');
  return dot == std::string_view::npos ? op : op.substr(dot + 1);
}

// An API's own name: the component after the namespace ("Functional.softmax", "Aten.add.Tensor"), the
// last for a MindSpore primitive ("Primitive.norm.RmsNorm").
std::string_view ApiName(std::string_view op) {
  const size_t first = op.find('.');
  if (first == std::string_view::npos) return op;
  if (op.substr(0, first) == "Primitive") return op.substr(op.rfind('.') + 1);
  const std::string_view rest = op.substr(first + 1);
  return rest.substr(0, rest.find('.'));
}

}  // namespace

CallStream StreamOf(const KeyParts& parts) {
  if (parts.op_no_number.empty()) return CallStream::kNone;
  if (parts.direction == "parameters_grad") return CallStream::kParametersGrad;
  const bool backward = parts.direction == "backward";
  if (IsModule(parts.op_no_number)) return backward ? CallStream::kModuleBackward : CallStream::kModuleForward;
  return backward ? CallStream::kApiBackward : CallStream::kApiForward;
}

std::string OpIdentity(std::string_view op_no_number, bool mindspore) {
  if (IsModule(op_no_number)) return Normalized(ModuleClass(op_no_number));
  if (mindspore) {
    const size_t second = op_no_number.find('.', op_no_number.find('.') + 1);
    if (auto target = BuiltinApiTarget(op_no_number.substr(0, second))) return Normalized(ApiName(*target));
  }
  return Normalized(ApiName(op_no_number));
}

}  // namespace msprobe::compare::internal
