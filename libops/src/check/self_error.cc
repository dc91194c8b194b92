#include "msprobe/ops/check/self_error.h"

#include <cmath>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <limits>
#include <optional>

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

// Both maxima are order-free, so they take two elements at a time (SSE2, every x86-64); the sums keep
// element order (their bits depend on it) in AddPairs. An element pair is "finite" when y and the
// stored r both are; a non-finite pair that is not the same value (both NaN, or equal infinities) makes
// max_rel infinite.
struct ErrorMaxima {
  double max_abs = 0, max_rel = 0;
  bool mismatch = false;
};

void MaxOfElement(double y, double r, double rms, ErrorMaxima* m) {
  if (!std::isfinite(y) || !std::isfinite(r)) {
    m->mismatch |= !((std::isnan(y) && std::isnan(r)) || y == r);
    return;
  }
  const double diff = std::abs(y - r);
  m->max_abs = std::max(m->max_abs, diff);
  const double scale = std::max(std::abs(r), rms);
  if (diff > 0) m->max_rel = std::max(m->max_rel, scale > 0 ? diff / scale : kInf);
}

ErrorMaxima Maxima(const double* y, const double* r, size_t n, double overflow, double rms) {
  ErrorMaxima m;
  size_t i = 0;
#ifdef __SSE2__
  // Lane by lane as MaxOfElement: diff / 0 is +inf for diff > 0, and lanes with diff == 0 or a
  // non-finite value add 0 to maxima that start at 0.
  const __m128d sign = _mm_set1_pd(-0.0), inf = _mm_set1_pd(kInf), over = _mm_set1_pd(overflow);
  const __m128d zero = _mm_setzero_pd(), rms2 = _mm_set1_pd(rms);
  __m128d max_abs = zero, max_rel = zero, mismatch = zero;
  for (; i + 2 <= n; i += 2) {
    const __m128d yv = _mm_loadu_pd(y + i), raw = _mm_loadu_pd(r + i);
    const __m128d overflows = _mm_cmpge_pd(_mm_andnot_pd(sign, raw), over);
    const __m128d rv = _mm_or_pd(_mm_and_pd(overflows, _mm_or_pd(_mm_and_pd(sign, raw), inf)),
                                 _mm_andnot_pd(overflows, raw));
    const __m128d finite =
        _mm_and_pd(_mm_cmplt_pd(_mm_andnot_pd(sign, yv), inf), _mm_cmplt_pd(_mm_andnot_pd(sign, rv), inf));
    const __m128d same = _mm_or_pd(_mm_and_pd(_mm_cmpunord_pd(yv, yv), _mm_cmpunord_pd(rv, rv)), _mm_cmpeq_pd(yv, rv));
    mismatch = _mm_or_pd(mismatch, _mm_andnot_pd(_mm_or_pd(finite, same), _mm_castsi128_pd(_mm_set1_epi32(-1))));
    const __m128d diff = _mm_and_pd(finite, _mm_andnot_pd(sign, _mm_sub_pd(yv, rv)));
    max_abs = _mm_max_pd(max_abs, diff);
    const __m128d scale = _mm_max_pd(_mm_andnot_pd(sign, rv), rms2);
    max_rel = _mm_max_pd(max_rel, _mm_and_pd(_mm_cmpgt_pd(diff, zero), _mm_div_pd(diff, scale)));
  }
  double lanes[2];
  _mm_storeu_pd(lanes, max_abs);
  m.max_abs = std::max(lanes[0], lanes[1]);
  _mm_storeu_pd(lanes, max_rel);
  m.max_rel = std::max(lanes[0], lanes[1]);
  m.mismatch = _mm_movemask_pd(mismatch) != 0;
#endif
  for (; i < n; ++i) MaxOfElement(y[i], Stored(r[i], overflow), rms, &m);
  return m;
}

// The sums of squares and the dot product over the finite pairs, in element order. A skipped element
// adds +0, which leaves every sum's bits as they are (none can be -0: they start at +0 and x + -x
// rounds to +0).
struct PairSums {
  double dot = 0, yy = 0, rr = 0;
};

void AddPairs(const double* y, const double* r, size_t n, double overflow, PairSums* s) {
  for (size_t i = 0; i < n; ++i) {
    const double stored = Stored(r[i], overflow), yi = y[i];
    const bool pair = std::isfinite(yi) && std::isfinite(stored);
    s->dot += pair ? yi * stored : 0.0;
    s->yy += pair ? yi * yi : 0.0;
    s->rr += pair ? stored * stored : 0.0;
  }
}

// Elements per block of the second pass: both of its loops read the block while it is in L1/L2.
constexpr size_t kBlock = 2048;

}  // namespace

ErrorMetrics MeasureError(const Fp64Tensor& dumped, const Fp64Tensor& reference, DType dtype) {
  const double overflow = OverflowThreshold(dtype);  // once, not per element: it was a sixth of the time
  const size_t n = reference.data.size();
  const double *y = dumped.data.data(), *r = reference.data.data();
  double sum_sq = 0;
  size_t finite = 0;
  for (size_t i = 0; i < n; ++i) {
    if (std::isfinite(r[i])) sum_sq += r[i] * r[i], ++finite;
  }
  const double rms = finite > 0 ? std::sqrt(sum_sq / static_cast<double>(finite)) : 0;
  ErrorMaxima maxima;
  PairSums sums;
  for (size_t first = 0; first < n; first += kBlock) {
    const size_t count = std::min(kBlock, n - first);
    const ErrorMaxima block = Maxima(y + first, r + first, count, overflow, rms);
    maxima.max_abs = std::max(maxima.max_abs, block.max_abs);
    maxima.max_rel = std::max(maxima.max_rel, block.max_rel);
    maxima.mismatch |= block.mismatch;
    AddPairs(y + first, r + first, count, overflow, &sums);
  }
  ErrorMetrics m;
  m.max_abs = maxima.max_abs;
  m.max_rel = maxima.mismatch ? kInf : maxima.max_rel;
  const double dot = sums.dot, yy = sums.yy, rr = sums.rr;
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
    case SelfVerdict::kUnreadable: return "unreadable";
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

SelfCheck UnreadableCheck(std::string reason) {
  SelfCheck check = UnsupportedCheck(std::move(reason));
  check.verdict = SelfVerdict::kUnreadable;
  return check;
}

SelfCheck CheckSelfError(std::string_view api, const CallArgs& args, const InputLoader& load) {
  // A saved tensor of a dtype the references take that does not load: its file is the problem, and the
  // call is unreadable rather than unsupported. The loads of one call run on its own thread, in turn.
  std::optional<Status> unread;
  const auto failed_file = [](const TensorRef& ref) { return ref.data_name && LoadsAsFp64(ref.dtype); };
  const InputLoader watched = [&](const TensorRef& ref) {
    Result<Fp64Tensor> t = load(ref);
    if (!t.ok() && !unread && failed_file(ref)) unread = t.status();
    return t;
  };
  auto reference = RunReference(api, args, watched);
  if (!reference.ok()) {
    return unread ? UnreadableCheck(unread->ToString()) : UnsupportedCheck(reference.status().ToString());
  }
  SelfCheck worst = UnsupportedCheck("no floating output was saved");
  for (size_t i = 0; i < args.outputs.size() && i < reference->size(); ++i) {
    const ArgValue& out = args.outputs[i];
    if (out.kind != ArgValue::Kind::kTensor || !out.tensor.data_name) continue;
    if (!IsFloating(out.tensor.dtype) && !IsInteger(out.tensor.dtype)) continue;
    auto dumped = load(out.tensor);
    if (!dumped.ok()) {
      const std::string why = dumped.status().ToString();
      return failed_file(out.tensor) ? UnreadableCheck(why) : UnsupportedCheck(why);
    }
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
    if (!worst.Measured() || check.Excess() > worst.Excess()) worst = std::move(check);
  }
  return worst;
}

}  // namespace msprobe::ops
