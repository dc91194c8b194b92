// What a kernel-dump dtype becomes in a .npy file (docs/kernel_dump.md §2.1/§2.2): bfloat16, the
// float8 kinds and hifloat8 → float32 (exact); int4 → int8; complex32 → complex64; the rest unchanged.
#pragma once

#include <cstdint>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/tensor/dtype.h"

namespace msprobe {

DType NpyDType(DType stored);

// Converts `count` elements of `stored` (int4 already widened to int8) to NpyDType(stored) at `out`,
// which holds count × its item size bytes (a plain copy when NpyDType(stored) == stored).
void ConvertForNpy(DType stored, Bytes in, uint64_t count, std::byte* out);

}  // namespace msprobe
