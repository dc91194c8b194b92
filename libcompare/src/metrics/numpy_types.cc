#include "metrics/numpy_types_internal.h"

#include <algorithm>
#include <utility>

namespace msprobe::compare::internal {

ScalarType ScalarTypeOf(DType t) {
  const DTypeInfo& info = Info(t);
  switch (info.kind) {
    case DTypeKind::kBool: return {ScalarType::kBool, 8};
    case DTypeKind::kSigned: return {ScalarType::kSigned, info.bits};
    case DTypeKind::kUnsigned: return {ScalarType::kUnsigned, info.bits};
    case DTypeKind::kComplex: return {ScalarType::kFloat, 64};
    case DTypeKind::kFloat: return {ScalarType::kFloat, t == DType::kF16 ? 16 : t == DType::kF64 ? 64 : 32};
  }
  return {ScalarType::kFloat, 64};
}

ScalarType Promote(ScalarType a, ScalarType b) {
  if (a.kind == b.kind) return {a.kind, std::max(a.bits, b.bits)};
  if (a.kind == ScalarType::kBool) return b;
  if (b.kind == ScalarType::kBool) return a;
  if (b.kind == ScalarType::kFloat) std::swap(a, b);
  if (a.kind == ScalarType::kFloat) {  // int with float: a float that holds every value of the int
    return {ScalarType::kFloat, std::max(a.bits, b.bits == 8 ? 16 : b.bits == 16 ? 32 : 64)};
  }
  if (a.kind == ScalarType::kUnsigned) std::swap(a, b);  // a signed, b unsigned
  if (a.bits > b.bits) return a;
  if (b.bits < 64) return {ScalarType::kSigned, std::max(a.bits, 2 * b.bits)};
  return {ScalarType::kFloat, 64};
}

}  // namespace msprobe::compare::internal
