#include "tensor/host_dtype_internal.h"

#include <complex>
#include <cstring>

#include "msprobe/dump/tensor/element_types.h"

namespace msprobe {

DType NpyDType(DType stored) {
  if (stored == DType::kBF16 || IsFloat8(stored)) return DType::kF32;
  if (stored == DType::kI4) return DType::kI8;
  if (stored == DType::kC32) return DType::kC64;
  return stored;
}

void ConvertForNpy(DType stored, Bytes in, uint64_t count, std::byte* out) {
  if (stored == DType::kI4) {  // widened by the reader already
    std::memcpy(out, in.data(), count);
    return;
  }
  VisitDType(stored, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, BFloat16>) {
      for (uint64_t i = 0; i < count; ++i) {
        const uint32_t bits = uint32_t{LoadLittleEndian<uint16_t>(in.data() + 2 * i)} << 16;  // exact
        std::memcpy(out + 4 * i, &bits, 4);
      }
    } else if constexpr (std::is_same_v<T, Complex32>) {
      for (uint64_t i = 0; i < count; ++i) {
        const std::complex<float> v(Float16ToFloat(LoadLittleEndian<uint16_t>(in.data() + 4 * i)),
                                    Float16ToFloat(LoadLittleEndian<uint16_t>(in.data() + 4 * i + 2)));
        std::memcpy(out + 8 * i, &v, 8);
      }
    } else if constexpr (sizeof(T) == 1 && !std::is_integral_v<T> && !std::is_same_v<T, Int4Pair>) {  // float8, hifloat8
      for (uint64_t i = 0; i < count; ++i) {
        const float v = static_cast<float>(ToDouble(T{static_cast<uint8_t>(in[i])}));  // exact in float
        std::memcpy(out + 4 * i, &v, 4);
      }
    } else {
      std::memcpy(out, in.data(), count * sizeof(T));  // unreachable by the REQUIRES; harmless
    }
  });
}

DType PtDType(DType stored) {
  if (stored == DType::kBF16) return DType::kBF16;
  if (stored == DType::kU16) return DType::kI32;
  if (stored == DType::kU32) return DType::kI64;
  return NpyDType(stored);
}

void ConvertForPt(DType stored, Bytes in, uint64_t count, std::byte* out) {
  if (stored == DType::kU16) {
    for (uint64_t i = 0; i < count; ++i) {
      const int32_t v = LoadLittleEndian<uint16_t>(in.data() + 2 * i);
      std::memcpy(out + 4 * i, &v, 4);
    }
  } else if (stored == DType::kU32) {
    for (uint64_t i = 0; i < count; ++i) {
      const int64_t v = LoadLittleEndian<uint32_t>(in.data() + 4 * i);
      std::memcpy(out + 8 * i, &v, 8);
    }
  } else if (PtDType(stored) == stored) {
    std::memcpy(out, in.data(), ByteSize(stored, count));
  } else {
    ConvertForNpy(stored, in, count, out);
  }
}

}  // namespace msprobe
