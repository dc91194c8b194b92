// The fake runtime's single-op path: CPU kernels behind aclopExecuteV2 (Add, Sub, Mul, Muls, Axpy,
// MatMul, Cast, Softmax, Relu, ReluGrad), float32 except Cast (float32 <-> float16).
#include <atomic>
#include <cmath>
#include <cstring>

#include "fake_runtime.h"

namespace fake_acl {
namespace {

float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  int32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) bits = sign | 0x7f800000 | (mant << 13);
  else if (exp) bits = sign | (static_cast<uint32_t>(exp + 112) << 23) | (mant << 13);
  else if (!mant) bits = sign;
  else {
    exp = 113;
    while (!(mant & 0x400)) { mant <<= 1; --exp; }
    bits = sign | (static_cast<uint32_t>(exp) << 23) | ((mant & 0x3ff) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// Round to nearest even; overflow to inf, NaN kept.
uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  const uint32_t abs = x & 0x7fffffff;
  if (abs >= 0x7f800000) return sign | 0x7c00 | (abs > 0x7f800000 ? 0x200 : 0);
  if (abs >= 0x477ff000) return sign | 0x7c00;
  if (abs < 0x38800000) {  // subnormal half
    const float scaled = std::fabs(f) * 16777216.0f;  // 2^24
    return sign | static_cast<uint16_t>(std::nearbyint(scaled));
  }
  const uint32_t rounded = abs + 0xfff + ((abs >> 13) & 1);
  return sign | static_cast<uint16_t>((rounded - 0x38000000) >> 13);
}

bool AllFloat(const std::vector<TensorRef>& ts) {
  for (const TensorRef& t : ts) {
    if (t.dtype != ACL_FLOAT || t.size < static_cast<size_t>(NumElements(t.dims)) * 4 || (NumElements(t.dims) && !t.data)) return false;
  }
  return true;
}

float* F(const TensorRef& t) { return static_cast<float*>(t.data); }

float AttrFloat(const aclopAttr* attr, const char* name, float fallback) {
  if (!attr) return fallback;
  auto it = attr->floats.find(name);
  return it == attr->floats.end() ? fallback : it->second;
}

bool AttrBool(const aclopAttr* attr, const char* name) {
  if (!attr) return false;
  auto it = attr->bools.find(name);
  return it != attr->bools.end() && it->second;
}

template <class Fn>
std::function<void()> Elementwise(const std::vector<TensorRef>& in, const std::vector<TensorRef>& out, size_t arity, Fn fn) {
  if (in.size() != arity || out.size() != 1 || !AllFloat(in) || !AllFloat(out)) return {};
  const int64_t n = NumElements(out[0].dims);
  for (const TensorRef& t : in) {
    if (NumElements(t.dims) != n) return {};
  }
  return [in, out, n, fn] {
    for (int64_t i = 0; i < n; ++i) {
      const float a = F(in[0])[i];
      const float b = in.size() > 1 ? F(in[1])[i] : 0.0f;
      F(out[0])[i] = fn(a, b);
    }
  };
}

std::function<void()> MatMul(const std::vector<TensorRef>& in, const std::vector<TensorRef>& out, const aclopAttr* attr) {
  if (in.size() != 2 || out.size() != 1 || !AllFloat(in) || !AllFloat(out)) return {};
  if (in[0].dims.size() != 2 || in[1].dims.size() != 2 || out[0].dims.size() != 2) return {};
  const bool t1 = AttrBool(attr, "transpose_x1"), t2 = AttrBool(attr, "transpose_x2");
  const int64_t m = t1 ? in[0].dims[1] : in[0].dims[0], k = t1 ? in[0].dims[0] : in[0].dims[1];
  const int64_t k2 = t2 ? in[1].dims[1] : in[1].dims[0], n = t2 ? in[1].dims[0] : in[1].dims[1];
  if (k != k2 || out[0].dims[0] != m || out[0].dims[1] != n) return {};
  const int64_t lda = in[0].dims[1], ldb = in[1].dims[1];
  return [=] {
    const float* a = F(in[0]);
    const float* b = F(in[1]);
    std::vector<float> y(static_cast<size_t>(m * n));  // inputs may alias the output
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        float acc = 0;
        for (int64_t p = 0; p < k; ++p) acc += (t1 ? a[p * lda + i] : a[i * lda + p]) * (t2 ? b[j * ldb + p] : b[p * ldb + j]);
        y[i * n + j] = acc;
      }
    }
    std::memcpy(F(out[0]), y.data(), y.size() * 4);
  };
}

std::function<void()> Softmax(const std::vector<TensorRef>& in, const std::vector<TensorRef>& out) {
  if (in.size() != 1 || out.size() != 1 || !AllFloat(in) || !AllFloat(out) || in[0].dims.empty()) return {};
  if (NumElements(in[0].dims) != NumElements(out[0].dims)) return {};
  const int64_t cols = in[0].dims.back(), rows = cols ? NumElements(in[0].dims) / cols : 0;
  return [=] {
    for (int64_t r = 0; r < rows; ++r) {
      const float* x = F(in[0]) + r * cols;
      float* y = F(out[0]) + r * cols;
      float mx = x[0];
      for (int64_t c = 1; c < cols; ++c) mx = std::fmax(mx, x[c]);
      if (std::isnan(x[0])) mx = x[0];
      float sum = 0;
      for (int64_t c = 0; c < cols; ++c) sum += (y[c] = std::exp(x[c] - mx));
      for (int64_t c = 0; c < cols; ++c) y[c] /= sum;
    }
  };
}

std::function<void()> Cast(const std::vector<TensorRef>& in, const std::vector<TensorRef>& out) {
  if (in.size() != 1 || out.size() != 1) return {};
  const int64_t n = NumElements(in[0].dims);
  if (NumElements(out[0].dims) != n || in[0].size < static_cast<size_t>(n) * ItemSize(in[0].dtype) || out[0].size < static_cast<size_t>(n) * ItemSize(out[0].dtype)) return {};
  const TensorRef a = in[0], y = out[0];
  if (a.dtype == ACL_FLOAT16 && y.dtype == ACL_FLOAT) {
    return [=] {
      for (int64_t i = 0; i < n; ++i) F(y)[i] = HalfToFloat(static_cast<uint16_t*>(a.data)[i]);
    };
  }
  if (a.dtype == ACL_FLOAT && y.dtype == ACL_FLOAT16) {
    return [=] {
      for (int64_t i = 0; i < n; ++i) static_cast<uint16_t*>(y.data)[i] = FloatToHalf(F(a)[i]);
    };
  }
  return {};
}

}  // namespace

std::function<void()> MakeKernel(const std::string& op, const std::vector<TensorRef>& in,
                                 const std::vector<TensorRef>& out, const aclopAttr* attr) {
  if (op == "Add") return Elementwise(in, out, 2, [](float a, float b) { return a + b; });
  if (op == "Sub") return Elementwise(in, out, 2, [](float a, float b) { return a - b; });
  if (op == "Mul") return Elementwise(in, out, 2, [](float a, float b) { return a * b; });
  if (op == "Relu") return Elementwise(in, out, 1, [](float a, float) { return a > 0 ? a : 0.0f; });
  if (op == "ReluGrad") return Elementwise(in, out, 2, [](float g, float f) { return f > 0 ? g : 0.0f; });
  if (op == "Muls") {
    const float v = AttrFloat(attr, "value", 1.0f);
    return Elementwise(in, out, 1, [v](float a, float) { return a * v; });
  }
  if (op == "Axpy") {
    const float alpha = AttrFloat(attr, "alpha", 1.0f);
    return Elementwise(in, out, 2, [alpha](float a, float b) { return a + alpha * b; });
  }
  if (op == "MatMul") return MatMul(in, out, attr);
  if (op == "Softmax") return Softmax(in, out);
  if (op == "Cast") return Cast(in, out);
  return {};
}

}  // namespace fake_acl

namespace {

std::vector<fake_acl::TensorRef> Refs(int n, const aclTensorDesc* const* desc, const aclDataBuffer* const* buf, bool* ok) {
  std::vector<fake_acl::TensorRef> refs;
  for (int i = 0; i < n; ++i) {
    if (!desc || !buf || !desc[i] || !buf[i]) {
      *ok = false;
      return refs;
    }
    refs.push_back({desc[i]->dtype, desc[i]->format, desc[i]->dims, buf[i]->data, buf[i]->size});
  }
  return refs;
}

aclError Execute(const char* opType, int numInputs, const aclTensorDesc* const* inputDesc,
                 const aclDataBuffer* const* inputs, int numOutputs, const aclTensorDesc* const* outputDesc,
                 const aclDataBuffer* const* outputs, const aclopAttr* attr, aclrtStream stream) {
  if (!opType || numInputs < 0 || numOutputs < 0) return ACL_ERROR_INVALID_PARAM;
  if (fake_acl::EnvInt("FAKE_ACL_FAIL_OP", -1) >= 0) {
    static std::atomic<int64_t> calls{0};
    if (calls.fetch_add(1) == fake_acl::EnvInt("FAKE_ACL_FAIL_OP", -1)) return ACL_ERROR_INTERNAL_ERROR;
  }
  bool ok = true;
  auto in = Refs(numInputs, inputDesc, inputs, &ok);
  auto out = Refs(numOutputs, outputDesc, outputs, &ok);
  if (!ok) return ACL_ERROR_INVALID_PARAM;
  auto kernel = fake_acl::MakeKernel(opType, in, out, attr);
  if (!kernel) return ACL_ERROR_INVALID_PARAM;
  fake_acl::Enqueue(stream, fake_acl::WithDump(opType, stream, in, out, std::move(kernel)));
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclopExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[], aclDataBuffer* inputs[],
                        int numOutputs, aclTensorDesc* outputDesc[], aclDataBuffer* outputs[], aclopAttr* attr,
                        aclrtStream stream) noexcept {
  try {
    return Execute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream);
  } catch (...) {
    return ACL_ERROR_INTERNAL_ERROR;
  }
}

aclError aclopExecute(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                      const aclDataBuffer* const inputs[], int numOutputs, const aclTensorDesc* const outputDesc[],
                      aclDataBuffer* const outputs[], const aclopAttr* attr, aclrtStream stream) noexcept {
  try {
    return Execute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream);
  } catch (...) {
    return ACL_ERROR_INTERNAL_ERROR;
  }
}

}  // extern "C"
