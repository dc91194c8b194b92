// Layer norm and RMS norm: normalisation over the trailing dims, statistics in float64.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <utility>

#include "reference/op_kernels_internal.h"

namespace msprobe::ops::internal {
namespace {

// The trailing dims of x must equal `normalized`; returns the number of normalised elements per row.
Result<int64_t> RowSize(const OpCall& call, const Fp64Tensor& x, const std::vector<int64_t>& normalized) {
  const size_t k = normalized.size();
  if (k == 0 || x.shape.size() < k || !std::equal(normalized.begin(), normalized.end(), x.shape.end() - static_cast<int64_t>(k))) {
    return call.Invalid(fmt::format("normalized shape {} does not match the trailing dims of input {}", ShapeText(normalized),
                                    ShapeText(x.shape)));
  }
  return Numel(normalized);
}

Status CheckAffine(const OpCall& call, const std::optional<Fp64Tensor>& t, const std::vector<int64_t>& normalized,
                   std::string_view name) {
  if (t && t->shape != normalized) {
    return call.Invalid(fmt::format("{} {} does not match the normalized shape {}", name, ShapeText(t->shape), ShapeText(normalized)));
  }
  return Status::Ok();
}

// y = x · rsqrt(mean(x², trailing dims) + eps) · gamma, written over x (each row's values are read
// for its sum before they are overwritten); rstd per row when asked.
Fp64Tensor RmsNorm(Fp64Tensor x, int64_t row, const std::optional<Fp64Tensor>& gamma, double eps, Fp64Values* rstd) {
  const int64_t rows = row == 0 ? 0 : x.numel() / row;
  for (int64_t r = 0; r < rows; ++r) {
    double* values = x.data.data() + r * row;
    double squares = 0;
    for (int64_t i = 0; i < row; ++i) squares += values[i] * values[i];
    const double s = 1.0 / std::sqrt(squares / static_cast<double>(row) + eps);
    if (rstd != nullptr) rstd->push_back(s);
    for (int64_t i = 0; i < row; ++i) values[i] = values[i] * s * (gamma ? gamma->data[static_cast<size_t>(i)] : 1.0);
  }
  return x;
}

}  // namespace

// F.layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5): biased variance, as torch.
Result<Outputs> LayerNormOp(const OpCall& call) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(5, {"input", "normalized_shape", "weight", "bias", "eps"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor x, call.Tensor({0, "input"}));
  MSP_ASSIGN_OR_RETURN(std::vector<int64_t> normalized, call.IntList({1, "normalized_shape"}));
  MSP_ASSIGN_OR_RETURN(std::optional<Fp64Tensor> weight, call.OptionalTensor({2, "weight"}));
  MSP_ASSIGN_OR_RETURN(std::optional<Fp64Tensor> bias, call.OptionalTensor({3, "bias"}));
  MSP_ASSIGN_OR_RETURN(double eps, call.Number({4, "eps"}, 1e-5));
  MSP_ASSIGN_OR_RETURN(int64_t row, RowSize(call, x, normalized));
  MSP_RETURN_IF_ERROR(CheckAffine(call, weight, normalized, "weight"));
  MSP_RETURN_IF_ERROR(CheckAffine(call, bias, normalized, "bias"));
  // Written over x: each row's values are read for its mean and variance before they are overwritten.
  const int64_t rows = row == 0 ? 0 : x.numel() / row;
  for (int64_t r = 0; r < rows; ++r) {
    double* values = x.data.data() + r * row;
    double sum = 0;
    for (int64_t i = 0; i < row; ++i) sum += values[i];
    const double mean = sum / static_cast<double>(row);
    double squares = 0;
    for (int64_t i = 0; i < row; ++i) squares += (values[i] - mean) * (values[i] - mean);
    const double rstd = 1.0 / std::sqrt(squares / static_cast<double>(row) + eps);
    for (int64_t i = 0; i < row; ++i) {
      double v = (values[i] - mean) * rstd;
      if (weight) v *= weight->data[static_cast<size_t>(i)];
      if (bias) v += bias->data[static_cast<size_t>(i)];
      values[i] = v;
    }
  }
  return OutputsOf(std::move(x));
}

// torch_npu.npu_rms_norm(x, gamma, epsilon=1e-6) → (y, rstd): normalised over gamma's dims; rstd keeps
// them as size 1.
Result<Outputs> NpuRmsNormOp(const OpCall& call) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(3, {"self", "gamma", "epsilon"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor x, call.Tensor({0, "self"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor gamma, call.Tensor({1, "gamma"}));
  MSP_ASSIGN_OR_RETURN(double eps, call.Number({2, "epsilon"}, 1e-6));
  MSP_ASSIGN_OR_RETURN(int64_t row, RowSize(call, x, gamma.shape));
  Fp64Tensor rstd;
  rstd.shape.assign(x.shape.begin(), x.shape.end() - gamma.dim());
  rstd.shape.resize(x.shape.size(), 1);
  Fp64Tensor y = RmsNorm(std::move(x), row, gamma, eps, &rstd.data);
  return OutputsOf(std::move(y), std::move(rstd));
}

// F.rms_norm(input, normalized_shape, weight=None, eps=None), the composite: eps None means
// torch.finfo(input.dtype).eps, the recorded dtype's.
Result<Outputs> RmsNormOp(const OpCall& call) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(4, {"input", "normalized_shape", "weight", "eps"}));
  MSP_ASSIGN_OR_RETURN(const TensorRef* ref, call.Ref({0, "input"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor x, call.Tensor({0, "input"}));
  MSP_ASSIGN_OR_RETURN(std::vector<int64_t> normalized, call.IntList({1, "normalized_shape"}));
  MSP_ASSIGN_OR_RETURN(std::optional<Fp64Tensor> weight, call.OptionalTensor({2, "weight"}));
  MSP_ASSIGN_OR_RETURN(std::optional<double> eps, call.OptionalNumber({3, "eps"}));
  MSP_ASSIGN_OR_RETURN(int64_t row, RowSize(call, x, normalized));
  MSP_RETURN_IF_ERROR(CheckAffine(call, weight, normalized, "weight"));
  if (!eps) {
    switch (ref->dtype) {
      case DType::kF64: eps = std::numeric_limits<double>::epsilon(); break;
      case DType::kF32: eps = std::numeric_limits<float>::epsilon(); break;
      case DType::kF16: eps = 0x1p-10; break;  // torch.finfo(torch.float16).eps
      case DType::kBF16: eps = 0x1p-7; break;  // torch.finfo(torch.bfloat16).eps
      default: return call.Unsupported(fmt::format("eps=None for a {} input", Name(ref->dtype)));
    }
  }
  return OutputsOf(RmsNorm(std::move(x), row, weight, *eps, nullptr));
}

}  // namespace msprobe::ops::internal
