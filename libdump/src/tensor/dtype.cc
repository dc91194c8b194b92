#include "msprobe/dump/tensor/dtype.h"

#include <array>

namespace msprobe {
namespace {

using K = DTypeKind;
// One row per DType, in enum order (checked below).
constexpr std::array<DTypeInfo, kDTypeCount> kTable = {{
    {DType::kBool, "bool", "torch.bool", "Bool", "|b1", "BoolStorage", 11, 8, K::kBool},
    {DType::kU8, "uint8", "torch.uint8", "UInt8", "|u1", "ByteStorage", 4, 8, K::kUnsigned},
    {DType::kI8, "int8", "torch.int8", "Int8", "|i1", "CharStorage", 3, 8, K::kSigned},
    {DType::kI16, "int16", "torch.int16", "Int16", "<i2", "ShortStorage", 5, 16, K::kSigned},
    {DType::kU16, "uint16", "torch.uint16", "UInt16", "<u2", "", 6, 16, K::kUnsigned},
    {DType::kI32, "int32", "torch.int32", "Int32", "<i4", "IntStorage", 7, 32, K::kSigned},
    {DType::kU32, "uint32", "torch.uint32", "UInt32", "<u4", "", 9, 32, K::kUnsigned},
    {DType::kI64, "int64", "torch.int64", "Int64", "<i8", "LongStorage", 8, 64, K::kSigned},
    {DType::kU64, "uint64", "torch.uint64", "UInt64", "<u8", "", 10, 64, K::kUnsigned},
    {DType::kF16, "float16", "torch.float16", "Float16", "<f2", "HalfStorage", 2, 16, K::kFloat},
    {DType::kBF16, "bfloat16", "torch.bfloat16", "BFloat16", "", "BFloat16Storage", 27, 16, K::kFloat},
    {DType::kF32, "float32", "torch.float32", "Float32", "<f4", "FloatStorage", 1, 32, K::kFloat},
    {DType::kF64, "float64", "torch.float64", "Float64", "<f8", "DoubleStorage", 12, 64, K::kFloat},
    {DType::kC32, "complex32", "torch.complex32", "", "", "", 32, 32, K::kComplex},
    {DType::kC64, "complex64", "torch.complex64", "Complex64", "<c8", "ComplexFloatStorage", 16, 64, K::kComplex},
    {DType::kC128, "complex128", "torch.complex128", "Complex128", "<c16", "ComplexDoubleStorage", 17, 128, K::kComplex},
    {DType::kI4, "int4", "", "Int4", "", "", 28, 4, K::kSigned},
    {DType::kF8E4M3FN, "float8_e4m3fn", "torch.float8_e4m3fn", "Float8E4M3FN", "", "", 35, 8, K::kFloat},
    {DType::kF8E5M2, "float8_e5m2", "torch.float8_e5m2", "Float8E5M2", "", "", 34, 8, K::kFloat},
    {DType::kF8E4M3FNUZ, "float8_e4m3fnuz", "torch.float8_e4m3fnuz", "", "", "", -1, 8, K::kFloat},
    {DType::kF8E5M2FNUZ, "float8_e5m2fnuz", "torch.float8_e5m2fnuz", "", "", "", -1, 8, K::kFloat},
    {DType::kF8E8M0, "float8_e8m0fnu", "torch.float8_e8m0fnu", "", "", "", 36, 8, K::kFloat},
    {DType::kHiF8, "hifloat8", "torch_npu.HiFloat8Tensor", "HiFloat8", "", "", 33, 8, K::kFloat},
}};

constexpr bool TableInEnumOrder() {
  for (int i = 0; i < kDTypeCount; ++i) {
    if (static_cast<int>(kTable[i].dtype) != i) return false;
  }
  return true;
}
static_assert(TableInEnumOrder(), "kTable rows must follow the DType enum order");

template <class Field>
std::optional<DType> Find(std::string_view key, Field field) {
  if (key.empty()) return std::nullopt;
  for (const DTypeInfo& row : kTable) {
    if (row.*field == key) return row.dtype;
  }
  return std::nullopt;
}

}  // namespace

const DTypeInfo& Info(DType t) { return kTable[static_cast<int>(t)]; }

bool IsFloat8(DType t) {
  return t == DType::kF8E4M3FN || t == DType::kF8E5M2 || t == DType::kF8E4M3FNUZ ||
         t == DType::kF8E5M2FNUZ || t == DType::kF8E8M0 || t == DType::kHiF8;
}

std::optional<DType> FromName(std::string_view name) { return Find(name, &DTypeInfo::name); }

std::optional<DType> FromTorchName(std::string_view name) {
  if (auto t = Find(name, &DTypeInfo::torch)) return t;
  // pickle GLOBALs and torch aliases name the dtype without the "torch." prefix.
  if (name.starts_with("torch.")) name.remove_prefix(6);
  if (name == "half") return DType::kF16;
  if (name == "float") return DType::kF32;
  if (name == "double") return DType::kF64;
  if (name == "long") return DType::kI64;
  if (name == "int") return DType::kI32;
  if (name == "short") return DType::kI16;
  if (name == "chalf") return DType::kC32;
  if (name == "cfloat") return DType::kC64;
  if (name == "cdouble") return DType::kC128;
  return FromName(name);
}

std::optional<DType> FromMindSporeName(std::string_view name) {
  return Find(name, &DTypeInfo::mindspore);
}

std::optional<DType> FromTorchStorage(std::string_view storage) {
  return Find(storage, &DTypeInfo::storage);
}

std::optional<DType> FromProtoId(int id) {
  switch (id) {  // quantized ints share the plain ints' storage (docs/kernel_dump.md §2.1)
    case 18: return DType::kI8;    // DT_QINT8
    case 19: return DType::kI16;   // DT_QINT16
    case 20: return DType::kI32;   // DT_QINT32
    case 21: return DType::kU8;    // DT_QUINT8
    case 22: return DType::kU16;   // DT_QUINT16
    case 23: return DType::kI64;   // DT_RESOURCE, decoded as int64 by msaccucmp
    default: break;
  }
  for (const DTypeInfo& row : kTable) {
    if (row.proto_id == id) return row.dtype;
  }
  return std::nullopt;
}

std::optional<DType> FromNpyDescr(std::string_view descr, bool* big_endian) {
  if (descr.size() < 2) return std::nullopt;
  const char order = descr[0];
  if (order != '<' && order != '>' && order != '|' && order != '=') return std::nullopt;
  std::string_view body = descr.substr(1);
  for (const DTypeInfo& row : kTable) {
    if (!row.npy_descr.empty() && row.npy_descr.substr(1) == body) {
      // One-byte types are written with '|' but numpy accepts any order character for them.
      if (big_endian) *big_endian = order == '>' && row.bits > 8;
      return row.dtype;
    }
  }
  return std::nullopt;
}

std::optional<DType> FromDumpName(std::string_view name) {
  if (auto t = FromTorchName(name)) return t;
  return FromMindSporeName(name);
}

}  // namespace msprobe
