// The file names of kernel dumps, parsed and built here: the .bin dump's
// {op_type}.{op_name}.{task}.{stream}.{timestamp} (docs/kernel_dump.md §4.1), and the npy dumps'
// (§4.2) MindSpore {…}.{input|output}.{slot}.{format}[.{dtype}].npy and msprobe L2 ….{FMT}.{DTYPE}.npy,
// or the same without ".npy" for raw bytes in the name's dtype; names too long for a file system
// are replaced by a hash (§4.4, mapping_csv.h maps them back).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "msprobe/dump/formats/bin_reader.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/dump/tensor/dtype.h"

namespace msprobe {

// The longest name accepted (PATH_MAX): original names behind mapping.csv exceed NAME_MAX (255).
inline constexpr size_t kMaxKernelDumpName = 4096;

struct KernelDumpName {
  std::string op_type, op_name;
  uint64_t task_id = 0, stream_id = 0;
  uint64_t timestamp = 0;         // µs; FFTS+ extra numeric fields after it are skipped
  bool is_input = false;          // input or output
  uint32_t slot = 0;
  std::string format;             // "DefaultFormat", "ND", "NCHW"… ("" when absent)
  std::string dtype_label;        // "float16" (MindSpore), "FLOAT16" (msprobe L2) or ""
  bool npy = false;               // ends with ".npy"; otherwise raw bytes in the label's dtype
  std::optional<DType> dtype;     // the label's dtype when it names one we decode

  std::string_view io() const { return is_input ? "input" : "output"; }
};

// Splits `basename` on '.' (docs/kernel_dump.md §4.2, the C++ rule): five fields op_type, op_name, task_id,
// stream_id, timestamp; optional numeric fields; "input"/"output"; the slot; then at most format and
// dtype; then ".npy" or nothing. A raw name (no ".npy") needs a dtype label naming a known dtype.
// InvalidInput, naming the field, for anything else.
Result<KernelDumpName> ParseKernelDumpName(std::string_view basename);

// The dtype of a dtype label: MindSpore's lower-case names ("float32", "bfloat16") and the msprobe L2
// upper-case proto names ("FLOAT", "BF16", "DOUBLE"). nullopt when unknown.
std::optional<DType> KernelDumpLabelDType(std::string_view label);

// Whether `basename` looks like a .bin dump's name (§4.1): at least five dot-separated fields, the
// last a number. In a dump tree, other files (npy, csv, json) are not kernel dumps.
bool IsKernelBinDumpName(std::string_view basename);

// The npy name msprobe-convert gives a slot of the .bin dump `bin_name`, msprobe L2's
// {bin_name}.{input|output}.{slot}.{FORMAT}.{DTYPE}.npy: FORMAT is the layout of the data written
// (NCHW/NCDHW/ND after a conversion, else the device format), DTYPE the original dtype's dump name
// (BF16 for bfloat16 data written as float32, as msprobe does).
std::string ConvertedSlotName(std::string_view bin_name, const BinSlot& slot, std::string_view format);

// The .pt name msprobe parse (msaccucmp convert -t pt) gives a slot: {bin_name}.{input|output}.{slot}.pt.
std::string ConvertedSlotPtName(std::string_view bin_name, const BinSlot& slot);

// Names longer than NAME_MAX bytes cannot be created: they become 32 hex digits of a hash of the name
// plus `extension` (msaccucmp's shape, deterministic so reruns agree), and mapping.csv maps them back.
inline constexpr size_t kMaxFileNameBytes = 255;
std::string HashedKernelDumpName(std::string_view name, std::string_view extension = ".npy");

}  // namespace msprobe
