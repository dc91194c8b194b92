// numpy's scalar types as msprobe's tensor compare sees them after loading (bfloat16 and float8 already
// float32), and numpy's type promotion between them: the dtype of a 0-d difference (docs/compare.md
// §4.2 step 6.6) and of a right_matmul product (step 3).
#pragma once

#include <cstdint>

#include "msprobe/dump/tensor/dtype.h"

namespace msprobe::compare::internal {

struct ScalarType {
  enum Kind : uint8_t { kBool, kSigned, kUnsigned, kFloat } kind;
  int bits;

  bool operator==(const ScalarType&) const = default;
};

// A complex dtype gives float64 (its real part, as astype(float) takes it).
ScalarType ScalarTypeOf(DType t);

// numpy's promote_types (numpy 1.x: when every operand is 0-d, the usual type promotion applies).
ScalarType Promote(ScalarType a, ScalarType b);

}  // namespace msprobe::compare::internal
