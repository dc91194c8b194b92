#include "msprobe/ops/check/self_error.h"

#include <cmath>
#include <limits>

#include "msprobe/ops/reference/reference.h"

namespace msprobe::ops {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The largest finite value of a floating dtype; +inf for the others (no overflow to model).
double MaxFinite(DType dtype) {
  switch (dtype) {
    case DType::kF16: return 65504.0;
    case DType::kBF16: return 3.3895313892515355e38;
    case DType::kF32: return static_cast<double>(std::numeric_limits<float>::max());
    default: return kInf;
  }
}

// The magnitude from which a correctly rounded kernel stores infinity (docs/ops.md §5): the largest
// finite value plus half a unit in its last place, 2^emax·(2 − u) (65520 for float16, not
// 65504·(1 + u) ≈ 65536); half an ulp of the largest value is 2^emax·u, emax being its exponent.
// +inf for dtypes without overflow to model.
double OverflowThreshold(DType dtype) {
  const double max_finite = MaxFinite(dtype);
  if (!std::isfinite(max_finite)) return kInf;
  return max_finite + std::ldexp(UnitRoundoff(dtype), std::ilogb(max_finite));
}

// What that kernel stores for r: the infinity of r's sign once |r| reaches the threshold, r below it.
double Stored(double r, double overflow) { return std::abs(r) >= overflow ? std::copysign(kInf, r) : r; }

std::string DumpDTypeName(DType dtype) {
  const DTypeInfo& info = Info(dtype);
  return std::string(info.torch.empty() ? info.name : info.torch);
}

}  // namespace

ErrorMetrics MeasureError(const Fp64Tensor& dumped, const Fp64Tensor& reference, DType dtype) {
  const double overflow = OverflowThreshold(dtype);  // once, not per element: it was a sixth of the time
  const size_t n = reference.data.size();
  double sum_sq = 0;
  size_t finite = 0;
  for (double r : reference.data) {
    if (std::isfinite(r)) sum_sq += r * r, ++finite;
  }
  const double rms = finite > 0 ? std::sqrt(sum_sq / static_cast<double>(finite)) : 0;
  ErrorMetrics m;
  double dot = 0, yy = 0, rr = 0;
  for (size_t i = 0; i < n; ++i) {
    const double y = dumped.data[i], r = Stored(reference.data[i], overflow);
    if (!std::isfinite(y) || !std::isfinite(r)) {
      const bool same = (std::isnan(y) && std::isnan(r)) || y == r;
      if (!same) m.max_rel = kInf;
      continue;
    }
    const double diff = std::abs(y - r);
    m.max_abs = std::max(m.max_abs, diff);
    const double scale = std::max(std::abs(r), rms);
    if (diff > 0) m.max_rel = std::max(m.max_rel, scale > 0 ? diff / scale : kInf);
    dot += y * r, yy += y * y, rr += r * r;
  }
  if (yy == 0 && rr == 0) {
    m.cosine = 1;
  } else if (yy == 0 || rr == 0) {
    m.cosine = std::numeric_limits<double>::quiet_NaN();
  } else {
    m.cosine = dot / (std::sqrt(yy) * std::sqrt(rr));
  }
  return m;
}

std::string_view SelfVerdictName(SelfVerdict verdict) {
  switch (verdict) {
    case SelfVerdict::kOk: return "ok";
    case SelfVerdict::kExceeds: return "exceeds";
    case SelfVerdict::kUnsupported: break;
  }
  return "unsupported";
}

double SelfCheck::Excess() const {
  if (error.max_rel == 0) return 0;
  return tolerance.rel > 0 ? error.max_rel / tolerance.rel : kInf;
}

SelfCheck UnsupportedCheck(std::string reason) {
  SelfCheck check;
  check.reason = std::move(reason);
  return check;
}

SelfCheck CheckSelfError(std::string_view api, const CallArgs& args, const InputLoader& load) {
  auto reference = RunReference(api, args, load);
  if (!reference.ok()) return UnsupportedCheck(reference.status().ToString());
  SelfCheck worst = UnsupportedCheck("no floating output was saved");
  for (size_t i = 0; i < args.outputs.size() && i < reference->size(); ++i) {
    const ArgValue& out = args.outputs[i];
    if (out.kind != ArgValue::Kind::kTensor || !out.tensor.data_name) continue;
    if (!IsFloating(out.tensor.dtype) && !IsInteger(out.tensor.dtype)) continue;
    auto dumped = load(out.tensor);
    if (!dumped.ok()) return UnsupportedCheck(dumped.status().ToString());
    const Fp64Tensor& r = (*reference)[i];
    if (dumped->numel() != r.numel()) {
      return UnsupportedCheck(out.tensor.path + ": the reference has shape " + ShapeText(r.shape) +
                              ", the dump " + ShapeText(dumped->shape));
    }
    SelfCheck check;
    check.dtype = DumpDTypeName(out.tensor.dtype);
    check.output = out.tensor.path;
    check.error = MeasureError(*dumped, r, out.tensor.dtype);
    check.tolerance = SelfTolerance(api, args, out.tensor.dtype);
    check.verdict = check.Excess() > 1 ? SelfVerdict::kExceeds : SelfVerdict::kOk;
    if (worst.verdict == SelfVerdict::kUnsupported || check.Excess() > worst.Excess()) worst = std::move(check);
  }
  return worst;
}

}  // namespace msprobe::ops
