// sum / mean over all dims or the listed ones, keepdim as torch.
#include <fmt/format.h>

#include <algorithm>

#include "reference/op_kernels_internal.h"
#include "tensor/shape_util_internal.h"

namespace msprobe::ops::internal {

// torch.sum(input, dim=None, keepdim=False, *, dtype=None); Tensor.sum(dim, keepdim, dtype) alike. An
// empty dim list reduces every dim, as torch does. mean refuses integer inputs unless dtype= is given
// (torch: "mean(): could not infer output dtype").
Result<Outputs> SumOp(const OpCall& call, bool mean) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(3, {"input", "dim", "keepdim", "dtype"}));
  MSP_RETURN_IF_ERROR(call.CheckFloatDType({-1, "dtype"}));
  MSP_ASSIGN_OR_RETURN(const TensorRef* ref, call.Ref({0, "input"}));
  if (mean && !IsFloating(ref->dtype) && call.Find({-1, "dtype"}) == nullptr) {
    return call.Invalid(fmt::format("mean(): input dtype must be floating point, got {}", Name(ref->dtype)));
  }
  MSP_ASSIGN_OR_RETURN(Fp64Tensor x, call.Tensor({0, "input"}));
  std::vector<int64_t> dims;  // absent, None or [] reduce every dim
  if (call.Find({1, "dim"}) != nullptr) {
    MSP_ASSIGN_OR_RETURN(dims, call.IntList({1, "dim"}));
  }
  MSP_ASSIGN_OR_RETURN(bool keepdim, call.Bool({2, "keepdim"}, false));
  std::vector<bool> reduced(x.shape.size(), dims.empty());
  for (int64_t dim : dims) {
    const std::optional<int64_t> d = WrapDim(dim, x.dim());
    if (!d) return call.Invalid(DimRangeError(dim, x.dim()));
    if (x.dim() == 0) continue;  // a 0-d tensor reduces over its one implicit dim
    if (reduced[static_cast<size_t>(*d)]) {
      return call.Invalid(fmt::format("dim {} appears multiple times in the list of dims", *d));
    }
    reduced[static_cast<size_t>(*d)] = true;
  }
  std::vector<int64_t> kept;  // output shape with reduced dims as 1, then strides 0 on them
  for (size_t d = 0; d < x.shape.size(); ++d) kept.push_back(reduced[d] ? 1 : x.shape[d]);
  const std::vector<int64_t> kept_strides = Strides(kept);
  Fp64Tensor out = Zeros(kept);
  std::vector<int64_t> index(x.shape.size(), 0);
  int64_t offset = 0;
  for (double v : x.data) {
    out.data[static_cast<size_t>(offset)] += v;
    for (size_t d = x.shape.size(); d-- > 0;) {  // odometer over the input
      const int64_t step = reduced[d] ? 0 : kept_strides[d];
      offset += step;
      if (++index[d] < x.shape[d]) break;
      offset -= step * index[d];
      index[d] = 0;
    }
  }
  if (mean) {
    const double count = static_cast<double>(x.numel() / std::max<int64_t>(out.numel(), 1));
    for (double& v : out.data) v /= count;  // an empty reduction: 0/0 = NaN, as torch
  }
  if (!keepdim) {
    std::vector<int64_t> shape;
    for (size_t d = 0; d < kept.size(); ++d) {
      if (!reduced[d]) shape.push_back(kept[d]);
    }
    out.shape = shape;
  }
  return OutputsOf(std::move(out));
}

}  // namespace msprobe::ops::internal
