// One table for every element type an input can carry: torch, MindSpore, numpy and kernel-dump proto
// names all map to one DType (docs/formats.md §1.4/§1.5/§6.3/§6.5, docs/kernel_dump.md §2). Readers look
// names up here; none has its own switch.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace msprobe {

enum class DType : uint8_t {
  kBool, kU8, kI8, kI16, kU16, kI32, kU32, kI64, kU64,
  kF16, kBF16, kF32, kF64,
  kC32, kC64, kC128,
  kI4,                                              // two's-complement nibbles, low nibble first
  kF8E4M3FN, kF8E5M2, kF8E4M3FNUZ, kF8E5M2FNUZ, kF8E8M0, kHiF8,
};
inline constexpr int kDTypeCount = static_cast<int>(DType::kHiF8) + 1;

enum class DTypeKind : uint8_t { kBool, kSigned, kUnsigned, kFloat, kComplex };

struct DTypeInfo {
  DType dtype;
  std::string_view name;       // our canonical name, numpy-like: "float32", "bfloat16", "int4"
  std::string_view torch;      // str(torch.dtype), "" when torch has none
  std::string_view mindspore;  // str(mindspore dtype), "" when MindSpore has none
  std::string_view npy_descr;  // little-endian numpy descr, "" when numpy has none
  std::string_view storage;    // torch legacy storage class (pickle GLOBAL "torch <storage>"), or ""
  int proto_id;                // kernel dump OutputDataType, -1 when none
  uint8_t bits;                // bits per element (4 for int4)
  DTypeKind kind;
};

const DTypeInfo& Info(DType t);
inline std::string_view Name(DType t) { return Info(t).name; }
// Bytes taken by n elements (int4 packs two per byte, rounding up).
inline uint64_t ByteSize(DType t, uint64_t n) { return (n * Info(t).bits + 7) / 8; }
inline bool IsFloating(DType t) { return Info(t).kind == DTypeKind::kFloat; }
inline bool IsComplex(DType t) { return Info(t).kind == DTypeKind::kComplex; }
inline bool IsInteger(DType t) {
  return Info(t).kind == DTypeKind::kSigned || Info(t).kind == DTypeKind::kUnsigned;
}
// float8 kinds: msprobe writes null statistics for them (docs/formats.md §1.4).
bool IsFloat8(DType t);

// Lookups; nullopt when the name is unknown.
std::optional<DType> FromName(std::string_view name);           // "float32", "bfloat16", ...
std::optional<DType> FromTorchName(std::string_view name);      // "torch.float32" (also "float32")
std::optional<DType> FromMindSporeName(std::string_view name);  // "Float32", "BFloat16"
std::optional<DType> FromTorchStorage(std::string_view storage);  // "FloatStorage"
std::optional<DType> FromProtoId(int id);  // includes the quantized and resource aliases
// A numpy descr such as "<f4", "|b1", ">i8". Sets *big_endian when the descr says '>'.
std::optional<DType> FromNpyDescr(std::string_view descr, bool* big_endian);
// A dump.json dtype string of either framework ("torch.bfloat16" or "BFloat16").
std::optional<DType> FromDumpName(std::string_view name);

}  // namespace msprobe
