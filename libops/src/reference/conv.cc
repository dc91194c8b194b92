// F.conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1): im2col per image and
// group, then one GEMM with the group's filters.
#include <fmt/format.h>

#include <array>

#include "reference/op_kernels_internal.h"

namespace msprobe::ops::internal {
namespace {

// stride / padding / dilation: an int or a list of one or two ints (torch's _pair).
Result<std::array<int64_t, 2>> Pair(const OpCall& call, Param p, int64_t fallback) {
  if (call.Find(p) == nullptr) return std::array<int64_t, 2>{fallback, fallback};
  MSP_ASSIGN_OR_RETURN(std::vector<int64_t> v, call.IntList(p));
  if (v.size() == 1) return std::array<int64_t, 2>{v[0], v[0]};
  if (v.size() == 2) return std::array<int64_t, 2>{v[0], v[1]};
  return call.Invalid(fmt::format("'{}' must be an int or a list of 2 ints", p.name));
}

struct Padding {
  std::array<int64_t, 2> before{0, 0}, after{0, 0};
};

// padding as ints, or the strings 'valid' (none) and 'same' (output size = input size: the total
// d·(k-1) split with the smaller half before, as torch does; stride must be 1).
Result<Padding> ReadPadding(const OpCall& call, const std::array<int64_t, 2>& kernel, const std::array<int64_t, 2>& stride,
                            const std::array<int64_t, 2>& dilation) {
  Padding pad;
  const ArgValue* v = call.Find({4, "padding"});
  if (v != nullptr && v->kind == ArgValue::Kind::kString) {
    if (v->text == "valid") return pad;
    if (v->text != "same") return call.Invalid(fmt::format("invalid padding string '{}'", v->text));
    if (stride[0] != 1 || stride[1] != 1) return call.Invalid("padding='same' is not supported for strided convolutions");
    for (int i = 0; i < 2; ++i) {
      const int64_t total = dilation[i] * (kernel[i] - 1);
      pad.before[i] = total / 2;
      pad.after[i] = total - pad.before[i];
    }
    return pad;
  }
  MSP_ASSIGN_OR_RETURN(auto p, Pair(call, {4, "padding"}, 0));
  pad.before = pad.after = p;
  return pad;
}

}  // namespace

Result<Outputs> Conv2dOp(const OpCall& call) {
  MSP_RETURN_IF_ERROR(call.CheckSignature(7, {"input", "weight", "bias", "stride", "padding", "dilation", "groups"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor x, call.Tensor({0, "input"}));
  MSP_ASSIGN_OR_RETURN(Fp64Tensor w, call.Tensor({1, "weight"}));
  MSP_ASSIGN_OR_RETURN(std::optional<Fp64Tensor> bias, call.OptionalTensor({2, "bias"}));
  MSP_ASSIGN_OR_RETURN(auto stride, Pair(call, {3, "stride"}, 1));
  MSP_ASSIGN_OR_RETURN(auto dilation, Pair(call, {5, "dilation"}, 1));
  MSP_ASSIGN_OR_RETURN(int64_t groups, call.Int({6, "groups"}, 1));
  const bool unbatched = x.dim() == 3;
  if (x.dim() != 3 && x.dim() != 4) return call.Invalid(fmt::format("expected 3-D or 4-D input, got {}", ShapeText(x.shape)));
  if (unbatched) x.shape.insert(x.shape.begin(), 1);
  if (w.dim() != 4) return call.Invalid(fmt::format("expected a 4-D weight, got {}", ShapeText(w.shape)));
  for (int i = 0; i < 2; ++i) {
    if (stride[i] <= 0) return call.Invalid("non-positive stride is not supported");
    if (dilation[i] <= 0) return call.Invalid("dilation should be greater than zero");
  }
  const int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], wd = x.shape[3];
  const int64_t o = w.shape[0], cg = w.shape[1];
  const std::array<int64_t, 2> kernel{w.shape[2], w.shape[3]};
  MSP_ASSIGN_OR_RETURN(Padding pad, ReadPadding(call, kernel, stride, dilation));
  for (int i = 0; i < 2; ++i) {
    if (pad.before[i] < 0) return call.Invalid("negative padding is not supported");
  }
  if (groups <= 0) return call.Invalid("non-positive groups is not supported");
  if (c != cg * groups || o % groups != 0) {
    return call.Invalid(fmt::format("weight {} with groups={} does not fit input {} ({} channels)", ShapeText(w.shape), groups,
                                    ShapeText(x.shape), c));
  }
  if (bias && (bias->dim() != 1 || bias->shape[0] != o)) {
    return call.Invalid(fmt::format("bias {} does not match {} output channels", ShapeText(bias->shape), o));
  }
  const std::array<int64_t, 2> in{h, wd};
  std::array<int64_t, 2> out{};
  for (int i = 0; i < 2; ++i) {
    out[i] = (in[i] + pad.before[i] + pad.after[i] - dilation[i] * (kernel[i] - 1) - 1) / stride[i] + 1;
    if (in[i] + pad.before[i] + pad.after[i] < dilation[i] * (kernel[i] - 1) + 1 || out[i] <= 0) {
      return call.Invalid(fmt::format("kernel {} (dilated) is larger than the padded input {}", ShapeText(w.shape), ShapeText(x.shape)));
    }
  }
  const int64_t og = o / groups, patch = cg * kernel[0] * kernel[1], pixels = out[0] * out[1];
  Fp64Tensor y = Zeros({n, o, out[0], out[1]});
  std::vector<double> columns(static_cast<size_t>(patch * pixels));
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t g = 0; g < groups; ++g) {
      // columns[(ci, ky, kx), (oy, ox)] = padded input at (g·cg + ci, oy·s + ky·d - pad, ox·s + kx·d - pad)
      size_t r = 0;
      for (int64_t ci = 0; ci < cg; ++ci) {
        const double* plane = x.data.data() + ((b * c) + g * cg + ci) * h * wd;
        for (int64_t ky = 0; ky < kernel[0]; ++ky) {
          for (int64_t kx = 0; kx < kernel[1]; ++kx) {
            for (int64_t oy = 0; oy < out[0]; ++oy) {
              const int64_t iy = oy * stride[0] + ky * dilation[0] - pad.before[0];
              for (int64_t ox = 0; ox < out[1]; ++ox) {
                const int64_t ix = ox * stride[1] + kx * dilation[1] - pad.before[1];
                columns[r++] = iy >= 0 && iy < h && ix >= 0 && ix < wd ? plane[iy * wd + ix] : 0.0;
              }
            }
          }
        }
      }
      Gemm(w.data.data() + g * og * patch, columns.data(), y.data.data() + (b * o + g * og) * pixels, og, patch, pixels, false);
    }
  }
  if (bias) {
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t oc = 0; oc < o; ++oc) {
        double* plane = y.data.data() + (b * o + oc) * pixels;
        for (int64_t p = 0; p < pixels; ++p) plane[p] += bias->data[static_cast<size_t>(oc)];
      }
    }
  }
  if (unbatched) y.shape.erase(y.shape.begin());
  return OutputsOf(std::move(y));
}

}  // namespace msprobe::ops::internal
