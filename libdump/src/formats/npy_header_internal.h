// Constants of the .npy container shared by the reader and the writer (docs/formats.md §6.5; numpy
// numpy/lib/format.py is the reference).
#pragma once

#include <cstdint>
#include <string_view>

namespace msprobe::npy_internal {

// "\x93NUMPY", then one byte each of major and minor version.
inline constexpr std::string_view kMagic{"\x93NUMPY", 6};
// Magic + version, then a little-endian header length: 2 bytes in version 1.0, 4 bytes in 2.0/3.0.
inline constexpr uint64_t kPreambleV1 = 10;
inline constexpr uint64_t kPreambleV2 = 12;
// numpy pads the header so the data starts at a multiple of ARRAY_ALIGN.
inline constexpr uint64_t kArrayAlign = 64;
// numpy >= 1.23 leaves room for the growth axis to reach this many digits (GROWTH_AXIS_MAX_DIGITS).
inline constexpr uint64_t kGrowthAxisMaxDigits = 21;
// numpy stops at 32 dims (64 in numpy 2); anything above 64 is refused as corrupt.
inline constexpr uint64_t kMaxDims = 64;

}  // namespace msprobe::npy_internal
