#include "msprobe/ops/check/tolerance.h"

#include <cmath>
#include <string>

#include "msprobe/ops/reference/reference.h"

namespace msprobe::ops {
namespace {

// Ops whose kernels are not correctly rounded (a polynomial or table for exp, erf, tanh, rsqrt,
// composed into gelu, softmax and the norms): 8 units of the output's roundoff instead of 2.
bool IsTranscendental(std::string_view api) {
  const std::string_view op = api.substr(api.rfind('.') + 1);  // "Functional.gelu" → "gelu"
  for (std::string_view name : {"gelu", "silu", "sigmoid", "tanh", "exp", "log", "rsqrt", "softmax", "log_softmax",
                                "layer_norm", "rms_norm", "npu_rms_norm", "scaled_dot_product_attention"}) {
    if (op == name) return true;
  }
  return false;
}

bool EndsWith(std::string_view api, std::string_view op) {
  return api.size() > op.size() && api.ends_with(op) && api[api.size() - op.size() - 1] == '.';
}

// The recorded tensor at position `pos` or keyword `name`; nullptr when absent or not a tensor.
const TensorRef* TensorArg(const CallArgs& args, size_t pos, std::string_view name) {
  const ArgValue* v = pos < args.args.size() ? &args.args[pos] : args.Kwarg(name);
  return v != nullptr && v->kind == ArgValue::Kind::kTensor ? &v->tensor : nullptr;
}

int64_t Product(const std::vector<int64_t>& dims, size_t from) {
  int64_t n = 1;
  for (size_t i = from; i < dims.size(); ++i) n *= dims[i];
  return n;
}

// The size of dimension `dim` (negative counts from the end) of `shape`; 1 when out of range.
int64_t DimSize(const std::vector<int64_t>& shape, int64_t dim) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (dim < 0) dim += rank;
  return dim >= 0 && dim < rank ? shape[static_cast<size_t>(dim)] : 1;
}

int64_t LastDim(const TensorRef* t) { return t == nullptr || t->shape.empty() ? 1 : t->shape.back(); }

int64_t IntArg(const CallArgs& args, size_t pos, std::string_view name, int64_t fallback) {
  const ArgValue* v = pos < args.args.size() ? &args.args[pos] : args.Kwarg(name);
  return v != nullptr && v->kind == ArgValue::Kind::kInt ? v->int_value : fallback;
}

int64_t Length(std::string_view api, const CallArgs& args) {
  const TensorRef* input = TensorArg(args, 0, "input");
  if (EndsWith(api, "linear") || EndsWith(api, "matmul") || EndsWith(api, "__matmul__") || EndsWith(api, "mm") ||
      EndsWith(api, "bmm")) {
    return LastDim(input);
  }
  if (EndsWith(api, "conv2d")) {
    const TensorRef* weight = TensorArg(args, 1, "weight");
    return weight == nullptr ? 1 : Product(weight->shape, 1);
  }
  if (EndsWith(api, "layer_norm") || EndsWith(api, "rms_norm")) {
    const TensorRef* weight = TensorArg(args, api.ends_with("npu_rms_norm") ? 1 : 2, "weight");
    if (weight == nullptr) weight = TensorArg(args, 1, "gamma");
    return weight != nullptr ? Product(weight->shape, 0) : LastDim(input);
  }
  if (EndsWith(api, "softmax") || EndsWith(api, "log_softmax")) {
    return input == nullptr ? 1 : DimSize(input->shape, IntArg(args, 1, "dim", -1));
  }
  if (EndsWith(api, "sum") || EndsWith(api, "mean")) {
    if (input == nullptr || args.outputs.empty() || args.outputs[0].kind != ArgValue::Kind::kTensor) return 1;
    const int64_t out = Product(args.outputs[0].tensor.shape, 0);
    return out > 0 ? Product(input->shape, 0) / out : 1;
  }
  if (EndsWith(api, "scaled_dot_product_attention")) {
    const TensorRef* key = TensorArg(args, 1, "key");
    return LastDim(input == nullptr ? TensorArg(args, 0, "query") : input) +
           (key != nullptr && key->shape.size() >= 2 ? key->shape[key->shape.size() - 2] : 1);
  }
  return 1;
}

}  // namespace

double UnitRoundoff(DType dtype) {
  switch (dtype) {
    case DType::kF16: return std::ldexp(1.0, -11);
    case DType::kBF16: return std::ldexp(1.0, -8);
    case DType::kF32: return std::ldexp(1.0, -24);
    case DType::kF64: return std::ldexp(1.0, -53);
    case DType::kF8E4M3FN: case DType::kF8E4M3FNUZ: return std::ldexp(1.0, -4);
    case DType::kF8E5M2: case DType::kF8E5M2FNUZ: return std::ldexp(1.0, -3);
    case DType::kF8E8M0: return 0.5;  // powers of two only
    case DType::kHiF8: return std::ldexp(1.0, -4);  // its widest significand (3 bits) near 1
    default: return IsFloating(dtype) || IsComplex(dtype) ? std::ldexp(1.0, -24) : 0.0;
  }
}

int64_t AccumulationLength(std::string_view api, const CallArgs& args) {
  const int64_t k = Length(ApiName(api), args);
  return k > 1 ? k : 1;
}

Tolerance SelfTolerance(std::string_view api, const CallArgs& args, DType out_dtype) {
  const std::string_view name = ApiName(api);
  Tolerance t;
  t.accumulation = AccumulationLength(name, args);
  const double u_out = UnitRoundoff(out_dtype);
  const double u_acc = out_dtype == DType::kF64 ? u_out : std::ldexp(1.0, -24);
  const double c_op = IsTranscendental(name) || t.accumulation > 1 ? 8 : 2;
  t.rel = c_op * u_out + 4 * std::sqrt(static_cast<double>(t.accumulation)) * (u_out > 0 ? u_acc : 0);
  return t;
}

}  // namespace msprobe::ops
