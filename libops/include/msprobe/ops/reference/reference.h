// Float64 reference implementations (forward only) of the APIs msprobe dumps: given a call's recorded
// arguments, recompute its outputs in float64 to tell an op's own error from inherited error. The
// supported APIs and argument forms are listed in docs/ops.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/util/status.h"
#include "msprobe/ops/args/call_args.h"
#include "msprobe/ops/tensor/fp64_tensor.h"
#include "msprobe/ops/tensor/tensor_loader.h"

namespace msprobe::ops {

// An API name without the dump suffix: "Functional.linear.0.forward" → "Functional.linear". A name
// without a ".{n}.forward" / ".{n}.backward" suffix is returned as is.
std::string_view ApiName(std::string_view name);

struct Support {
  bool supported = false;
  std::string reason;  // why not, when unsupported
};
// Whether `name` (with or without the dump suffix) has a reference. Backward entries never do.
Support QuerySupport(std::string_view name);
// Every supported API name, sorted.
std::vector<std::string> SupportedApis();

// Runs the reference of `api` on `args`; `load` fetches the input tensors. The outputs are in the order
// of the call's `output` list. InvalidInput: arguments torch would reject (shapes, dims); Unsupported:
// an API or argument form without a reference (training-mode dropout, rounding_mode, ...).
Result<std::vector<Fp64Tensor>> RunReference(std::string_view api, const CallArgs& args, const InputLoader& load);

}  // namespace msprobe::ops
