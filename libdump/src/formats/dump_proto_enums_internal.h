// The kernel-dump protobuf enumerations (docs/kernel_dump.md §1.3): device formats by number and the
// names file names use for formats and dtypes. Unknown values stay numbers; their name is "UNKNOWN".
#pragma once

#include <cstdint>
#include <string_view>

namespace msprobe {

// The OutputFormat values the layout converter knows (others are kept as plain numbers).
enum ProtoFormat : int64_t {
  kFormatNCHW = 0, kFormatNHWC = 1, kFormatND = 2, kFormatNC1HWC0 = 3, kFormatFractalZ = 4,
  kFormatNC1HWC0_C04 = 12, kFormatCHWN = 14, kFormatHWCN = 16, kFormatC1HWNCoC0 = 25, kFormatNDHWC = 27,
  kFormatFractalNZ = 29, kFormatNCDHW = 30, kFormatDHWCN = 31, kFormatNDC1HWC0 = 32, kFormatFractalZ3D = 33,
  kFormatCN = 34, kFormatNC = 35, kFormatDHWNC = 36, kFormatNCL = 47,
};

// "NC1HWC0", "FRACTAL_NZ", "C1HWNCoC0" (msprobe DataUtils::GetFormatString); "UNKNOWN" otherwise.
std::string_view ProtoFormatName(int64_t format);
// "FLOAT", "FLOAT16", "BF16", "INT4", "FLOAT8_E4M3FN" (the DT_ name without "DT_"); "UNKNOWN" otherwise.
std::string_view ProtoDTypeName(int64_t data_type);

}  // namespace msprobe
