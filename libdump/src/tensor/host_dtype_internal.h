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

// What it becomes in a .pt file: bfloat16 stays (torch has it); uint16 → int32 and uint32 → int64
// (exact; torch 1.x has no unsigned types but uint8); uint64 has no torch type (Unsupported by the
// writer); the rest as for .npy.
DType PtDType(DType stored);
// As ConvertForNpy, to PtDType(stored).
void ConvertForPt(DType stored, Bytes in, uint64_t count, std::byte* out);

}  // namespace msprobe
