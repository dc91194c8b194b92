// Output file names of msprobe-convert (spec kernel_dump.md §4.2, §4.4): msprobe L2's
// {bin}.{input|output}.{slot}.{FORMAT}.{DTYPE}.npy, and the rename + mapping.csv rule for long names.
#pragma once

#include <string>
#include <string_view>

#include "msprobe/dump/kernel/bin_reader.h"

namespace msprobe::convert_app {

// FORMAT is the layout of the data written (NCHW/NCDHW/ND after a conversion, else the device format);
// DTYPE is the original dtype's dump name (BF16 for bfloat16 data written as float32, as msprobe does).
std::string SlotFileName(std::string_view bin_name, const BinSlot& slot, std::string_view format);

// Names longer than 255 bytes cannot be created: they become 32 hex digits of a hash of the name plus
// ".npy" (msaccucmp's shape, deterministic so reruns agree), and `mapping.csv` maps them back.
constexpr size_t kMaxFileName = 255;
std::string ShortName(std::string_view name);

}  // namespace msprobe::convert_app
