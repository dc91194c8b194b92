// torch.matmul / mm / bmm and F.linear. The products run through Gemm (gemm_isa.cc).
#include <fmt/format.h>

#include <optional>
#include <vector>

#include "reference/op_kernels_internal.h"
#include "tensor/shape_util_internal.h"

namespace msprobe::ops::internal {
namespace {

std::vector<int64_t> Batch(const std::vector<int64_t>& shape) { return {shape.begin(), shape.end() - 2}; }

Result<Outputs> One(Result<Fp64Tensor> t) {
  if (!t.ok()) return t.status();
  return OutputsOf(std::move(t).value());
}

Result<Outputs> TwoTensors(const OpCall& call, int64_t dims, bool batched) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(2, {"input", "mat2", "other"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor a, call.Tensor({0, "input"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor b, call.Tensor({1, batched || dims == 2 ? "mat2" : "other"}));
  if (a.dim() != dims || b.dim() != dims) {
    return call.Invalid(fmt::format("expects {}-D tensors, got {} and {}", dims, ShapeText(a.shape), ShapeText(b.shape)));
  }
  if (batched && a.shape[0] != b.shape[0]) {
    return call.Invalid(fmt::format("batch sizes differ: {} and {}", ShapeText(a.shape), ShapeText(b.shape)));
  }
  return One(Matmul(call, a, b));
}

}  // namespace

Result<Fp64Tensor> Matmul(const OpCall& call, const Fp64Tensor& a, const Fp64Tensor& b) {
  if (a.dim() == 0 || b.dim() == 0) return call.Invalid("both arguments to matmul need to be at least 1D");
  // A 1-D left operand is a row [1, k], a 1-D right operand a column [k, 1]; the added dim is dropped
  // from the result (torch.matmul's documented rules).
  std::vector<int64_t> as = a.shape, bs = b.shape;
  if (a.dim() == 1) as.insert(as.begin(), 1);
  if (b.dim() == 1) bs.push_back(1);
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k) {
    return call.Invalid(fmt::format("shapes {} and {} cannot be multiplied ({}x{} and {}x{})", ShapeText(a.shape),
                                    ShapeText(b.shape), m, k, bs[bs.size() - 2], n));
  }
  const std::optional<std::vector<int64_t>> batch = BroadcastShapes(Batch(as), Batch(bs));
  if (!batch) return call.Invalid(fmt::format("batch dims of {} and {} do not broadcast", ShapeText(a.shape), ShapeText(b.shape)));
  std::vector<int64_t> a_full = *batch, b_full = *batch;
  a_full.insert(a_full.end(), {m, k});
  b_full.insert(b_full.end(), {k, n});
  // An operand whose batch dims are already the result's is read in place; only one that broadcasts
  // is copied out to the full shape.
  std::optional<Fp64Tensor> a_copy, b_copy;
  if (Batch(as) != *batch) a_copy = BroadcastTo(Fp64Tensor{as, a.data}, a_full);
  if (Batch(bs) != *batch) b_copy = BroadcastTo(Fp64Tensor{bs, b.data}, b_full);
  const double* a_values = a_copy ? a_copy->data.data() : a.data.data();
  const double* b_values = b_copy ? b_copy->data.data() : b.data.data();
  std::vector<int64_t> out_shape = *batch;
  out_shape.insert(out_shape.end(), {m, n});
  Fp64Tensor out = Zeros(out_shape);
  const int64_t batches = Numel(*batch);
  for (int64_t i = 0; i < batches; ++i) {
    Gemm(a_values + i * m * k, b_values + i * k * n, out.data.data() + i * m * n, m, k, n, false);
  }
  if (b.dim() == 1) out.shape.pop_back();
  if (a.dim() == 1) out.shape.erase(out.shape.end() - (b.dim() == 1 ? 1 : 2));
  return out;
}

Result<Outputs> MatmulOp(const OpCall& call) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(2, {"input", "other"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor a, call.Tensor({0, "input"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor b, call.Tensor({1, "other"}));
  return One(Matmul(call, a, b));
}

Result<Outputs> MmOp(const OpCall& call) { return TwoTensors(call, 2, false); }
Result<Outputs> BmmOp(const OpCall& call) { return TwoTensors(call, 3, true); }

// F.linear(input, weight, bias=None): input @ weight.T + bias; weight [out, in] (or [in]: no out dim).
Result<Outputs> LinearOp(const OpCall& call) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(3, {"input", "weight", "bias"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor x, call.Tensor({0, "input"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor w, call.Tensor({1, "weight"}));
  MSP_ASSIGN_OR_RETURN(std::optional<Fp64Tensor> bias, call.OptionalTensor({2, "bias"}));
  if (x.dim() == 0) return call.Invalid("input must be at least 1-D");
  if (w.dim() != 1 && w.dim() != 2) return call.Invalid(fmt::format("weight must be 1-D or 2-D, got {}", ShapeText(w.shape)));
  const int64_t in = x.shape.back();
  const int64_t out_features = w.dim() == 2 ? w.shape[0] : 1;
  if (w.shape.back() != in) {
    return call.Invalid(fmt::format("input {} and weight {} cannot be multiplied", ShapeText(x.shape), ShapeText(w.shape)));
  }
  std::vector<int64_t> shape(x.shape.begin(), x.shape.end() - 1);
  const int64_t rows = Numel(shape);
  if (w.dim() == 2) shape.push_back(out_features);
  Fp64Tensor y = Zeros(shape);
  Gemm(x.data.data(), w.data.data(), y.data.data(), rows, in, out_features, true);  // an empty inner dim gives zeros
  if (bias) {
    const std::optional<std::vector<int64_t>> b = BroadcastShapes(y.shape, bias->shape);
    if (!b || *b != y.shape) {
      return call.Invalid(fmt::format("bias {} does not broadcast to the output {}", ShapeText(bias->shape), ShapeText(y.shape)));
    }
    ForEachBroadcast(*bias, y.shape, [&y](size_t i, double b) { y.data[i] += b; });
  }
  return OutputsOf(std::move(y));
}

}  // namespace msprobe::ops::internal
