// add / sub / mul / div with broadcasting and scalar operands, in every form msprobe records them:
// torch.add(input, other, alpha=1), Tensor.add / __add__ / __radd__ / add_ / __iadd__, and so on.
#include <fmt/format.h>

#include <optional>

#include "reference/op_kernels_internal.h"
#include "tensor/shape_util_internal.h"

namespace msprobe::ops::internal {
namespace {

// A tensor argument, or a Python number as a 0-d tensor.
Result<Fp64Tensor> Operand(const OpCall& call, Param p) {
  const ArgValue* v = call.Find(p);
  if (v == nullptr) return call.Invalid(fmt::format("missing argument '{}'", p.name));
  if (v->kind == ArgValue::Kind::kTensor) {
    if (v->tensor.dtype == DType::kBool) return call.Unsupported(fmt::format("'{}' is a bool tensor (no float arithmetic)", p.name));
    return call.Load(*v, p.name);
  }
  if (v->kind == ArgValue::Kind::kInt || v->kind == ArgValue::Kind::kFloat) return Fp64Tensor{{}, {v->float_value}};
  return call.Invalid(fmt::format("'{}' must be a tensor or a number, not {}", p.name, KindName(v->kind)));
}

double Combine(Binary op, double a, double b) {
  switch (op) {
    case Binary::kAdd: return a + b;
    case Binary::kSub: return a - b;
    case Binary::kMul: return a * b;
    case Binary::kDiv: return a / b;
  }
  __builtin_unreachable();  // every Binary is listed above; -Wswitch keeps it so
}

}  // namespace

Result<Outputs> BinaryOp(const OpCall& call, Binary op, bool reflected, bool inplace) {
  const bool has_alpha = (op == Binary::kAdd || op == Binary::kSub) && !reflected;
  MSP_RETURN_IF_ERROR(call.CheckSignature(2, {"input", "other", "alpha", "rounding_mode"}));
  if (!has_alpha && call.Find({-1, "alpha"}) != nullptr) return call.Invalid("unexpected keyword argument 'alpha'");
  MSP_ASSIGN_OR_RETURN(double alpha, call.Number({-1, "alpha"}, 1.0));
  if (const ArgValue* mode = call.Find({-1, "rounding_mode"}); mode != nullptr) {
    if (op != Binary::kDiv) return call.Invalid("unexpected keyword argument 'rounding_mode'");
    return call.Unsupported(fmt::format("rounding_mode={} (only None)", mode->kind == ArgValue::Kind::kString ? mode->text : "?"));
  }
  MSP_ASSIGN_OR_RETURN(Fp64Tensor self, Operand(call, {0, "input"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor other, Operand(call, {1, "other"}));
  const std::optional<std::vector<int64_t>> shape = BroadcastShapes(self.shape, other.shape);
  if (!shape) {
    return call.Invalid(fmt::format("the size of tensor a {} must match the size of tensor b {} (broadcasting)",
                                    ShapeText(self.shape), ShapeText(other.shape)));
  }
  if (inplace && *shape != self.shape) {
    return call.Invalid(fmt::format("output with shape {} doesn't match the broadcast shape {}", ShapeText(self.shape), ShapeText(*shape)));
  }
  // The result is written over the left operand's values, each read just before (both operands are
  // this call's own), and the right operand is read where it lies: materializing either at the
  // result's shape doubled the call's memory and cost more than the arithmetic. Only a left operand
  // smaller than the result is expanded, to hold it.
  Fp64Tensor& x = reflected ? other : self;
  const Fp64Tensor& y = reflected ? self : other;
  if (x.shape != *shape) x = BroadcastTo(x, *shape);
  ForEachBroadcast(y, *shape, [&](size_t i, double b) {
    // torch applies alpha as a multiplication only when it is not 1 (add's CPU kernel: a + alpha·b).
    x.data[i] = Combine(op, x.data[i], alpha == 1.0 ? b : alpha * b);
  });
  return OutputsOf(std::move(x));
}

}  // namespace msprobe::ops::internal
