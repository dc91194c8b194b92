// Pointwise activations and math functions, softmax / log_softmax along a dim, and eval-mode dropout.
#include <fmt/format.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "reference/op_kernels_internal.h"
#include "tensor/shape_util_internal.h"

namespace msprobe::ops::internal {
namespace {

// The forms torch writes them in (ATen's CPU kernels), so float64 results agree to the last bits.
double Apply(Unary op, double x) {
  switch (op) {
    case Unary::kRelu: return std::isnan(x) ? x : std::max(x, 0.0);
    case Unary::kSigmoid: return 1.0 / (1.0 + std::exp(-x));
    case Unary::kTanh: return std::tanh(x);
    case Unary::kExp: return std::exp(x);
    case Unary::kLog: return std::log(x);
    case Unary::kSqrt: return std::sqrt(x);
    case Unary::kRsqrt: return 1.0 / std::sqrt(x);
    case Unary::kSilu: return x / (1.0 + std::exp(-x));
  }
  __builtin_unreachable();  // every Unary is listed above; -Wswitch keeps it so
}

template <class F>
Fp64Tensor Map(Fp64Tensor t, F f) {
  Eigen::Map<Eigen::ArrayXd> values(t.data.data(), t.numel());
  values = values.unaryExpr(f);
  return t;
}

// The tanh GELU's constants as ATen writes them: β = √2 · (2/√π) · 0.5 = √(2/π), κ = 0.044715.
constexpr double kGeluBeta = std::numbers::sqrt2 * (2.0 * std::numbers::inv_sqrtpi) * 0.5;
constexpr double kGeluKappa = 0.044715;

}  // namespace

void SoftmaxInPlace(double* base, int64_t size, int64_t stride, bool log) {
  auto at = [&](int64_t k) -> double& { return base[k * stride]; };
  double max = -INFINITY;  // NaN when any value is NaN, as torch's max
  for (int64_t k = 0; k < size; ++k) max = std::isnan(at(k)) || std::isnan(max) ? NAN : std::max(max, at(k));
  double sum = 0;
  for (int64_t k = 0; k < size; ++k) sum += std::exp(at(k) - max);
  if (log) {
    const double log_sum = std::log(sum);
    for (int64_t k = 0; k < size; ++k) at(k) = at(k) - max - log_sum;
  } else {
    for (int64_t k = 0; k < size; ++k) at(k) = std::exp(at(k) - max) / sum;
  }
}

// relu/silu also take `inplace` (F.relu(input, inplace=False)); it changes nothing in the values.
Result<Outputs> UnaryOp(const OpCall& call, Unary op) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(2, {"input", "inplace"}));
  MSP_ASSIGN_OR_RETURN(bool inplace, call.Bool({1, "inplace"}, false));
  (void)inplace;
  MSP_ASSIGN_OR_RETURN(Fp64Tensor x, call.Tensor({0, "input"}));
  return OutputsOf(Map(std::move(x), [op](double v) { return Apply(op, v); }));
}

// F.gelu(input, approximate='none'): x·Φ(x) with erf, or the tanh approximation.
Result<Outputs> GeluOp(const OpCall& call) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(2, {"input", "approximate"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor x, call.Tensor({0, "input"}));
  MSP_ASSIGN_OR_RETURN(std::string approximate, call.String({1, "approximate"}, "none"));
  if (approximate == "none") {
    return OutputsOf(Map(std::move(x), [](double v) { return v * 0.5 * (1.0 + std::erf(v * (1.0 / std::numbers::sqrt2))); }));
  }
  if (approximate == "tanh") {
    return OutputsOf(Map(std::move(x), [](double v) {
      return 0.5 * v * (1.0 + std::tanh(kGeluBeta * (v + kGeluKappa * v * v * v)));
    }));
  }
  return call.Invalid(fmt::format("approximate argument must be either none or tanh, got '{}'", approximate));
}

// softmax(input, dim, dtype) along `dim`, max-shifted; log_softmax = x - max - log Σ exp(x - max). An
// implicit dim (F.softmax without dim, deprecated) depends on the rank in a legacy way: refused.
Result<Outputs> SoftmaxOp(const OpCall& call, bool log, bool functional) {
  const Param dtype{functional ? 3 : 2, "dtype"};
  MSP_RETURN_IF_ERROR(call.CheckSignature(functional ? 4 : 3, {"input", "dim", "dtype", "_stacklevel"}));
  MSP_RETURN_IF_ERROR(call.CheckFloatDType(dtype));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor x, call.Tensor({0, "input"}));
  if (call.Find({1, "dim"}) == nullptr) return call.Unsupported("softmax without dim (the implicit dim choice is deprecated)");
  MSP_ASSIGN_OR_RETURN(int64_t dim, call.Int({1, "dim"}));
  const std::optional<int64_t> d = WrapDim(dim, x.dim());
  if (!d) return call.Invalid(DimRangeError(dim, x.dim()));
  const DimSplit s = SplitAt(x.shape, *d);
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t i = 0; i < s.inner; ++i) {
      SoftmaxInPlace(x.data.data() + o * s.size * s.inner + i, s.size, s.inner, log);
    }
  }
  return OutputsOf(std::move(x));
}

// F.dropout(input, p=0.5, training=True, inplace=False): the identity when not training (or p = 0);
// a training-mode mask is random, so there is no reference for it.
Result<Outputs> DropoutOp(const OpCall& call) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(4, {"input", "p", "training", "inplace"}));
  MSP_ASSIGN_OR_RETURN(double p, call.Number({1, "p"}, 0.5));
  MSP_ASSIGN_OR_RETURN(bool training, call.Bool({2, "training"}, true));
  MSP_ASSIGN_OR_RETURN(bool inplace, call.Bool({3, "inplace"}, false));
  (void)inplace;
  if (!(p >= 0 && p <= 1)) return call.Invalid(fmt::format("dropout probability has to be between 0 and 1, but got {}", p));
  if (training && p != 0) return call.Unsupported("dropout with training=True (a random mask) has no reference");
  MSP_ASSIGN_OR_RETURN(Fp64Tensor x, call.Tensor({0, "input"}));
  return OutputsOf(std::move(x));
}

}  // namespace msprobe::ops::internal
