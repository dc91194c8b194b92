// An API call's self error (docs/ops.md §5): its dumped outputs measured against the float64
// reference recomputed from its own dumped inputs. Within tolerance, the op computed correctly on
// what it received, whatever its inputs were; beyond it, the op itself made the error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "msprobe/dump/tensor/dtype.h"
#include "msprobe/ops/args/call_args.h"
#include "msprobe/ops/check/tolerance.h"
#include "msprobe/ops/tensor/fp64_tensor.h"
#include "msprobe/ops/tensor/tensor_loader.h"

namespace msprobe::ops {

// Dumped values against reference values, elementwise, in float64.
struct ErrorMetrics {
  double max_abs = 0;  // max |y - r| over the elements where both are finite
  // max |y - r| / max(|r|, rms(r)): relative to the element, or to the output's root mean square
  // for elements smaller than that (an accumulation's error scales with the terms, not with a
  // result that cancelled to near 0). +inf where y and r disagree on NaN or on an infinity.
  double max_rel = 0;
  double cosine = 1;   // of y and r over the finite pairs; 1 when both are 0, NaN when one is
};

// `dumped` and `reference` hold the same number of elements. A reference value that round to
// nearest would overflow in `dtype` (|r| at least the largest finite value plus half its ulp) is the
// infinity of its sign, as a correctly rounded kernel would give.
ErrorMetrics MeasureError(const Fp64Tensor& dumped, const Fp64Tensor& reference, DType dtype);

// kUnreadable: a saved tensor of the call (its file missing or unreadable) could not be loaded. Not an
// unsupported op: the dump, not our references, left the call unchecked (docs/ops.md §5).
enum class SelfVerdict : uint8_t { kOk, kExceeds, kUnsupported, kUnreadable };
inline constexpr size_t kSelfVerdicts = 4;
std::string_view SelfVerdictName(SelfVerdict verdict);  // "ok", "exceeds", "unsupported", "unreadable"

struct SelfCheck {
  SelfVerdict verdict = SelfVerdict::kUnsupported;
  // kUnsupported: why (no reference, an argument form, a tensor not saved); kUnreadable: the file and
  // its problem.
  std::string reason;
  std::string dtype;     // the checked output's dtype, as dump.json names it
  std::string output;    // which output: "output.0"
  ErrorMetrics error;    // of that output: the one furthest beyond its tolerance
  Tolerance tolerance;

  // max_rel in units of the tolerance (0 when exact, > 1 beyond it, +inf when the tolerance is 0).
  double Excess() const;
  // Whether the metrics above were measured (ok or exceeds); they are empty otherwise.
  bool Measured() const { return verdict == SelfVerdict::kOk || verdict == SelfVerdict::kExceeds; }
};

// Recomputes the call and measures each dumped floating output (those without data_name are
// skipped) against it; the worst one is reported. Unsupported when the API has no reference, an
// argument form is refused, a tensor was not saved or is of a dtype no reference takes, or no output
// was saved; unreadable when a saved tensor's file cannot be loaded.
SelfCheck CheckSelfError(std::string_view api, const CallArgs& args, const InputLoader& load);
SelfCheck UnsupportedCheck(std::string reason);
SelfCheck UnreadableCheck(std::string reason);

}  // namespace msprobe::ops
