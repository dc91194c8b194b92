// F.scaled_dot_product_attention by its documented reference formula: softmax(q·kᵀ·scale + bias)·v,
// where bias is the causal mask or attn_mask (bool: False → -inf; float: added). A row masked
// entirely gives NaN, as that formula does.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "reference/op_kernels_internal.h"
#include "tensor/shape_util_internal.h"

namespace msprobe::ops::internal {

Result<Outputs> SdpaOp(const OpCall& call) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(
      7, {"query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale", "enable_gqa"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor q, call.Tensor({0, "query"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor k, call.Tensor({1, "key"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor v, call.Tensor({2, "value"}));
  MSP_ASSIGN_OR_RETURN(double dropout_p, call.Number({4, "dropout_p"}, 0.0));
  MSP_ASSIGN_OR_RETURN(bool is_causal, call.Bool({5, "is_causal"}, false));
  MSP_ASSIGN_OR_RETURN(std::optional<double> scale, call.OptionalNumber({6, "scale"}));
  MSP_ASSIGN_OR_RETURN(bool gqa, call.Bool({-1, "enable_gqa"}, false));
  if (dropout_p != 0) return call.Unsupported(fmt::format("dropout_p={} (a random mask; only 0)", dropout_p));
  if (gqa) return call.Unsupported("enable_gqa=True");
  if (q.dim() < 2 || k.dim() < 2 || v.dim() < 2) return call.Invalid("query, key and value must be at least 2-D");
  const int64_t l = q.shape[q.shape.size() - 2], s = k.shape[k.shape.size() - 2], e = q.shape.back();
  if (k.shape.back() != e || v.shape[v.shape.size() - 2] != s) {
    return call.Invalid(fmt::format("query {}, key {} and value {} do not fit", ShapeText(q.shape), ShapeText(k.shape), ShapeText(v.shape)));
  }
  MSP_ASSIGN_OR_RETURN(Fp64Tensor scores, Matmul(call, q, Transpose(k, k.dim() - 2, k.dim() - 1)));
  const double factor = scale ? *scale : 1.0 / std::sqrt(static_cast<double>(e));
  for (double& x : scores.data) x *= factor;
  const ArgValue* mask_arg = call.Find({3, "attn_mask"});
  if (is_causal && mask_arg != nullptr) return call.Invalid("explicit attn_mask should not be set when is_causal=True");
  if (is_causal) {  // tril(ones(L, S)): position j is visible from i when j <= i
    for (size_t x = 0; x < scores.data.size(); ++x) {
      const int64_t col = static_cast<int64_t>(x) % s, row = static_cast<int64_t>(x) / s % l;
      if (col > row) scores.data[x] = -INFINITY;
    }
  } else if (mask_arg != nullptr) {
    MSP_ASSIGN_OR_RETURN(Fp64Tensor mask, call.Load(*mask_arg, "attn_mask"));
    const std::optional<std::vector<int64_t>> shape = BroadcastShapes(scores.shape, mask.shape);
    if (!shape || *shape != scores.shape) {
      return call.Invalid(fmt::format("attn_mask {} does not broadcast to the scores {}", ShapeText(mask.shape), ShapeText(scores.shape)));
    }
    if (mask_arg->tensor.dtype == DType::kBool) {
      ForEachBroadcast(mask, scores.shape, [&scores](size_t x, double m) {
        if (m == 0) scores.data[x] = -INFINITY;
      });
    } else {
      ForEachBroadcast(mask, scores.shape, [&scores](size_t x, double m) { scores.data[x] += m; });
    }
  }
  for (int64_t r = 0; r < scores.numel() / std::max<int64_t>(s, 1); ++r) SoftmaxInPlace(scores.data.data() + r * s, s, 1, false);
  MSP_ASSIGN_OR_RETURN(Fp64Tensor out, Matmul(call, scores, v));
  return OutputsOf(std::move(out));
}

}  // namespace msprobe::ops::internal
