// The file names of kernel npy dumps (spec kernel_dump.md §4.2): MindSpore's
// {op_type}.{op_name}.{task}.{stream}.{timestamp}.{input|output}.{slot}.{format}[.{dtype}].npy and
// msprobe L2's ….{FMT}.{DTYPE}.npy, or the same without ".npy" for raw bytes in the name's dtype.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "msprobe/dump/tensor/dtype.h"
#include "msprobe/dump/status.h"

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

// Splits `basename` on '.' (kernel_dump.md §4.2, the C++ rule): five fields op_type, op_name, task_id,
// stream_id, timestamp; optional numeric fields; "input"/"output"; the slot; then at most format and
// dtype; then ".npy" or nothing. A raw name (no ".npy") needs a dtype label naming a known dtype.
// InvalidInput, naming the field, for anything else.
Result<KernelDumpName> ParseKernelDumpName(std::string_view basename);

// The dtype of a dtype label: MindSpore's lower-case names ("float32", "bfloat16") and the msprobe L2
// upper-case proto names ("FLOAT", "BF16", "DOUBLE"). nullopt when unknown.
std::optional<DType> KernelDumpLabelDType(std::string_view label);

}  // namespace msprobe
