// A tensor file's content as one number: two files hash equal when they hold the same dtype, shape
// and element bytes in logical order, whatever their container (.pt view or .npy). Lets
// `--attribute` tell that an API's input is an earlier API's output (docs/ops.md §7).
#pragma once

#include <cstdint>
#include <string>

#include "msprobe/dump/util/status.h"

namespace msprobe {

// CRC-64 (ECMA, reflected) of the element bytes, seeded with the dtype and shape.
Result<uint64_t> TensorContentHash(const std::string& path);

}  // namespace msprobe
