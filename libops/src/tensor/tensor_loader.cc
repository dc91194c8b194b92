#include "msprobe/ops/tensor/tensor_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/tensor/element_types.h"
#include "msprobe/dump/files/tensor_file.h"
#include "msprobe/dump/tensor/tensor_source.h"

namespace msprobe::ops {

bool LoadsAsFp64(DType dtype) { return !IsComplex(dtype) && dtype != DType::kI4; }

Result<Fp64Tensor> LoadFp64Tensor(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(TensorInfo info, ReadTensorFile(path));
  if (!LoadsAsFp64(info.dtype)) {
    return Status::Unsupported(path, fmt::format("{} tensors have no float64 reference", Name(info.dtype)));
  }
  MSP_ASSIGN_OR_RETURN(TensorSource source, TensorSource::Open(info));
  Fp64Tensor out;
  out.shape = info.shape;
  out.data.resize(source.numel());
  MSP_RETURN_IF_ERROR(source.ForEachWindow([&](uint64_t first, uint64_t count, Bytes bytes) {
    VisitDType(info.dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, Int4Pair>) {
        __builtin_unreachable();  // refused above
      } else {
        for (uint64_t i = 0; i < count; ++i) {  // memcpy: a mapped window need not be aligned for T
          T element;
          std::memcpy(&element, bytes.data() + i * sizeof(T), sizeof(T));
          out.data[first + i] = ToDouble(element);
        }
      }
    });
  }));
  return out;
}

InputLoader DirectoryLoader(std::string tensor_dir) {
  return [dir = std::move(tensor_dir)](const TensorRef& ref) -> Result<Fp64Tensor> {
    if (!ref.data_name) return Status::NotFound(ref.path, "the tensor was not saved (no data_name)");
    MSP_ASSIGN_OR_RETURN(std::string path, ResolveDataName(dir, *ref.data_name));
    MSP_ASSIGN_OR_RETURN(Fp64Tensor t, LoadFp64Tensor(path));
    if (t.shape != ref.shape) {
      return Status::InvalidInput(path, fmt::format("shape {} differs from the recorded {}", ShapeText(t.shape),
                                                    ShapeText(ref.shape)));
    }
    return t;
  };
}

}  // namespace msprobe::ops
