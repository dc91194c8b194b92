// How far a correct kernel's output may stray from the float64 reference of the same call
// (docs/ops.md §5): rounding to the output dtype, a few units more for ops that are not correctly
// rounded, and the accumulator's rounding growing with the square root of the accumulation length.
#pragma once

#include <cstdint>
#include <string_view>

#include "msprobe/dump/tensor/dtype.h"
#include "msprobe/ops/args/call_args.h"

namespace msprobe::ops {

// The unit roundoff of a floating dtype (2^-p for p significand bits: 2^-24 for float32, 2^-8 for
// bfloat16); 0 for integer and bool dtypes, whose results are exact.
double UnitRoundoff(DType dtype);

// The number of terms each output element sums (linear's and matmul's inner dimension, conv2d's
// C_in/groups·kH·kW, the normalised or reduced length, attention's head size plus key length);
// 1 for elementwise and shape ops. Taken from the recorded shapes, no tensor is read.
int64_t AccumulationLength(std::string_view api, const CallArgs& args);

struct Tolerance {
  double rel = 0;            // the bound on SelfError::max_rel
  int64_t accumulation = 1;  // AccumulationLength
};
// rel = c_op·u(out) + 4·√K·u(acc), with c_op 2 for arithmetic and shape ops, 8 for transcendental
// ones and for reductions, u(acc) float32's roundoff for float16/bfloat16/float32 outputs (kernels
// accumulate in float32) and the output's own otherwise.
Tolerance SelfTolerance(std::string_view api, const CallArgs& args, DType out_dtype);

}  // namespace msprobe::ops
