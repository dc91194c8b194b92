// Shape ops (cat, stack, transpose, reshape/view, permute) and F.embedding, a row gather: values move,
// none is computed.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "reference/op_kernels_internal.h"
#include "tensor/shape_util_internal.h"

namespace msprobe::ops::internal {

// torch.cat(tensors, dim=0) / torch.stack(tensors, dim=0). cat skips 1-D empty tensors, torch's legacy
// rule; stack inserts the new dim and needs equal shapes.
Result<Outputs> CatOp(const OpCall& call, bool stack) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(2, {"tensors", "dim"}));
  const ArgValue* list = call.Find({0, "tensors"});
  if (list == nullptr || list->kind != ArgValue::Kind::kList) return call.Invalid("'tensors' must be a list of tensors");
  if (list->items.empty()) return call.Invalid("expected a non-empty list of tensors");
  MSP_ASSIGN_OR_RETURN(int64_t dim, call.Int({1, "dim"}, 0));
  std::vector<Fp64Tensor> parts;
  for (const ArgValue& item : list->items) {
    MSP_ASSIGN_OR_RETURN(Fp64Tensor t, call.Load(item, "tensors"));
    if (stack && !parts.empty() && t.shape != parts.front().shape) {
      return call.Invalid(fmt::format("stack expects each tensor to be equal size, got {} and {}", ShapeText(parts.front().shape),
                                      ShapeText(t.shape)));
    }
    if (!stack && t.dim() == 1 && t.numel() == 0) continue;
    parts.push_back(std::move(t));
  }
  if (parts.empty()) return OutputsOf(Zeros({0}));
  if (stack) {
    for (Fp64Tensor& t : parts) {
      const std::optional<int64_t> d = WrapDim(dim, t.dim() + 1);
      if (!d) return call.Invalid(DimRangeError(dim, t.dim() + 1));
      t.shape.insert(t.shape.begin() + *d, 1);
    }
  }
  const Fp64Tensor& first = parts.front();
  if (first.dim() == 0) return call.Invalid("zero-dimensional tensor cannot be concatenated");
  const std::optional<int64_t> d = WrapDim(dim, first.dim());
  if (!d) return call.Invalid(DimRangeError(dim, first.dim()));
  std::vector<int64_t> shape = first.shape;
  shape[static_cast<size_t>(*d)] = 0;
  for (const Fp64Tensor& t : parts) {
    bool fits = t.dim() == first.dim();
    for (int64_t i = 0; fits && i < t.dim(); ++i) fits = i == *d || t.shape[static_cast<size_t>(i)] == first.shape[static_cast<size_t>(i)];
    if (!fits) {
      return call.Invalid(fmt::format("sizes of tensors must match except in dimension {}: {} and {}", *d, ShapeText(first.shape),
                                      ShapeText(t.shape)));
    }
    shape[static_cast<size_t>(*d)] += t.shape[static_cast<size_t>(*d)];
  }
  Fp64Tensor out = Zeros(shape);
  const DimSplit s = SplitAt(shape, *d);
  int64_t at = 0;  // where the current part starts along dim
  for (const Fp64Tensor& t : parts) {
    const int64_t chunk = t.shape[static_cast<size_t>(*d)] * s.inner;
    for (int64_t o = 0; o < s.outer; ++o) {
      std::copy_n(t.data.begin() + o * chunk, chunk, out.data.begin() + (o * s.size + at) * s.inner);
    }
    at += t.shape[static_cast<size_t>(*d)];
  }
  return OutputsOf(std::move(out));
}

// torch.transpose(input, dim0, dim1), Tensor.transpose(dim0, dim1).
Result<Outputs> TransposeOp(const OpCall& call) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(3, {"input", "dim0", "dim1"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor x, call.Tensor({0, "input"}));
  MSP_ASSIGN_OR_RETURN(int64_t dim0, call.Int({1, "dim0"}));
  MSP_ASSIGN_OR_RETURN(int64_t dim1, call.Int({2, "dim1"}));
  const std::optional<int64_t> a = WrapDim(dim0, x.dim()), b = WrapDim(dim1, x.dim());
  if (!a) return call.Invalid(DimRangeError(dim0, x.dim()));
  if (!b) return call.Invalid(DimRangeError(dim1, x.dim()));
  if (x.dim() == 0) return OutputsOf(std::move(x));
  return OutputsOf(Transpose(x, *a, *b));
}

// torch.reshape(input, shape); Tensor.reshape / Tensor.view(*shape) or (shape). One -1 is inferred.
// Tensor.view(dtype) reinterprets bytes: refused.
Result<Outputs> ReshapeOp(const OpCall& call, bool method) {
  MSP_ASSIGN_OR_RETURN(const TensorRef* ref, call.Ref({0, "input"}));
  (void)ref;
  if (call.positional_count() == 2 && call.positional(1).kind == ArgValue::Kind::kDType) {
    return call.Unsupported("view(dtype) reinterprets the bytes");
  }
  if (!method) MSP_RETURN_IF_ERROR(call.CheckSignature(2, {"input", "shape"}));
  MSP_ASSIGN_OR_RETURN(std::vector<int64_t> shape, call.IntsFrom(1, method ? "size" : "shape"));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor x, call.Tensor({0, "input"}));
  int64_t known = 1;
  std::optional<size_t> infer;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer) return call.Invalid("only one dimension can be inferred");
      infer = i;
    } else if (shape[i] < 0) {
      return call.Invalid(fmt::format("invalid shape dimension {}", shape[i]));
    } else {
      known *= shape[i];
    }
  }
  if (infer && known != 0 && x.numel() % known == 0) shape[*infer] = x.numel() / known;
  if ((infer && (known == 0 || x.numel() % known != 0)) || Numel(shape) != x.numel()) {
    return call.Invalid(fmt::format("shape {} is invalid for input of size {}", ShapeText(shape), x.numel()));
  }
  x.shape = std::move(shape);
  return OutputsOf(std::move(x));
}

// torch.permute(input, dims); Tensor.permute(*dims) or (dims).
Result<Outputs> PermuteOp(const OpCall& call, bool method) {
  if (!method) MSP_RETURN_IF_ERROR(call.CheckSignature(2, {"input", "dims"}));
  MSP_ASSIGN_OR_RETURN(std::vector<int64_t> dims, call.IntsFrom(1, "dims"));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor x, call.Tensor({0, "input"}));
  if (static_cast<int64_t>(dims.size()) != x.dim()) {
    return call.Invalid(fmt::format("number of dims don't match in permute: input {}, dims {}", ShapeText(x.shape), ShapeText(dims)));
  }
  std::vector<bool> seen(dims.size(), false);
  for (int64_t& dim : dims) {
    const std::optional<int64_t> d = WrapDim(dim, x.dim());
    if (!d) return call.Invalid(DimRangeError(dim, x.dim()));
    if (seen[static_cast<size_t>(*d)]) return call.Invalid("repeated dim in permute");
    seen[static_cast<size_t>(*d)] = true;
    dim = *d;
  }
  if (x.dim() == 0) return OutputsOf(std::move(x));
  return OutputsOf(Permute(x, dims));
}

// F.embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
// sparse=False): rows of weight by index. padding_idx and the last two only matter for the gradient;
// max_norm renormalises weight in place, a side effect with no reference here.
Result<Outputs> EmbeddingOp(const OpCall& call) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(
      7, {"input", "weight", "padding_idx", "max_norm", "norm_type", "scale_grad_by_freq", "sparse"}));
  MSP_ASSIGN_OR_RETURN(const TensorRef* ref, call.Ref({0, "input"}));
  if (!IsInteger(ref->dtype)) return call.Invalid(fmt::format("indices must be an integer tensor, got {}", Name(ref->dtype)));
  if (call.Find({3, "max_norm"}) != nullptr) return call.Unsupported("max_norm (renormalises weight in place)");
  MSP_ASSIGN_OR_RETURN(Fp64Tensor index, call.Tensor({0, "input"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor weight, call.Tensor({1, "weight"}));
  if (weight.dim() != 2) return call.Invalid(fmt::format("weight must be 2-D, got {}", ShapeText(weight.shape)));
  const int64_t rows = weight.shape[0], width = weight.shape[1];
  MSP_ASSIGN_OR_RETURN(std::optional<double> padding_idx, call.OptionalNumber({2, "padding_idx"}));
  if (padding_idx && (*padding_idx < -static_cast<double>(rows) || *padding_idx >= static_cast<double>(rows))) {
    return call.Invalid("padding_idx must be within num_embeddings");
  }
  std::vector<int64_t> shape = index.shape;
  shape.push_back(width);
  Fp64Tensor out = Zeros(shape);
  for (int64_t i = 0; i < index.numel(); ++i) {
    const double id = index.data[static_cast<size_t>(i)];
    if (!(id >= 0 && id < static_cast<double>(rows))) {
      return call.Invalid(fmt::format("index {} out of range for {} embeddings", id, rows));
    }
    std::copy_n(weight.data.begin() + static_cast<int64_t>(id) * width, width, out.data.begin() + i * width);
  }
  return OutputsOf(std::move(out));
}

}  // namespace msprobe::ops::internal
