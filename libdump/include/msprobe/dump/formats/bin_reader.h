// Reads kernel ".bin" dumps (CANN adump / AICPU dump version 2.0, docs/kernel_dump.md §1): a
// little-endian u64 header length, a protobuf DumpData header, then the raw bytes of every input,
// output, buffer and workspace in that order. Everything the header declares is validated before any
// tensor byte is touched (§1.4); each slot becomes a TensorInfo over the file in its device layout.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/io/byte_cursor.h"
#include "msprobe/dump/tensor/dtype.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/dump/tensor/tensor.h"

namespace msprobe {

enum class BinSlotKind : uint8_t { kInput, kOutput, kBuffer, kWorkspace };
std::string_view SlotKindName(BinSlotKind kind);  // "input", "output", "buffer", "workspace"

struct BinSlot {
  BinSlotKind kind = BinSlotKind::kInput;
  uint32_t index = 0;                 // position among the slots of its kind
  int64_t proto_dtype = 0;            // OutputDataType as declared, unknown values kept
  std::optional<DType> dtype;         // FromProtoId(proto_dtype); nullopt: no decoder (and buffers)
  int64_t format = 0;                 // OutputFormat as declared (proto3 default 0 = NCHW)
  int32_t sub_format = 0;             // FRACTAL_Z: conv groups
  std::vector<int64_t> device_shape;  // `shape`, validated against `size`
  // `original_shape`; nullopt when it holds an unknown dim (> INT64_MAX, i.e. a negative int64).
  std::optional<std::vector<int64_t>> original_shape;
  uint64_t size = 0;                  // bytes in the data section
  // The slot's bytes in the file. With a dtype: its dtype and device shape. Without one: uint8 [size].
  TensorInfo tensor;
};

struct BinFile {
  std::string path;
  std::string version;               // "2.0" from the writer
  uint64_t dump_time = 0;            // µs since the epoch
  std::string op_name;               // unsanitized, may contain '/'
  std::vector<BinSlot> slots;        // inputs, outputs, buffers, workspaces: the data-section order
  uint64_t data_offset = 0;          // 8 + header length
  uint64_t trailing_bytes = 0;       // bytes after the declared data (tolerated, §1.4 / correction 6)
};

// Parses the whole file `file` (only the header is read). `source` names the file in messages and
// becomes each slot's tensor.path. Nano (TLV, magic 0x5A5A5A5A) and ATB ("$Version=") .bin files and
// version-1 dumps with inline data are Unsupported; every inconsistency (header length past the end,
// bad protobuf, dims that overflow or disagree with `size`, negative sub_format, declared data past the
// end of the file) is InvalidInput naming the slot and the numbers. A short file is refused whole,
// never read with shifted tensors: the writer skips a null-address slot's bytes, so which slot lost
// its bytes cannot be known.
Result<BinFile> ParseBin(Bytes file, const std::string& source);

// Maps `path` and parses it with ParseBin.
Result<BinFile> ReadBinFile(const std::string& path);

}  // namespace msprobe
