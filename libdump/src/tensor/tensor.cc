#include "msprobe/dump/tensor/tensor.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace msprobe {

uint64_t TensorInfo::Numel() const {
  uint64_t n = 1;
  for (int64_t d : shape) n *= static_cast<uint64_t>(d);
  return n;
}

std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

bool TensorInfo::IsContiguous() const {
  if (strides.empty()) return true;
  const std::vector<int64_t> c = ContiguousStrides(shape);
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1 && strides[i] != c[i]) return false;  // a size-1 dim's stride is irrelevant
  }
  return true;
}

std::string TensorInfo::ShapeString() const { return fmt::format("[{}]", fmt::join(shape, ", ")); }

Status ValidateExtent(const TensorInfo& t, const std::string& source) {
  if (!t.strides.empty() && t.strides.size() != t.shape.size()) {
    return Status::InvalidInput(source, fmt::format("{} strides for {} dims", t.strides.size(), t.shape.size()));
  }
  if (t.storage_offset < 0) {
    return Status::InvalidInput(source, fmt::format("negative storage offset {}", t.storage_offset));
  }
  // Element count, checked against 2^62 so byte sizes stay representable.
  constexpr uint64_t kLimit = uint64_t{1} << 62;
  uint64_t numel = 1;
  for (int64_t d : t.shape) {
    if (d < 0) return Status::InvalidInput(source, fmt::format("negative dimension in shape {}", t.ShapeString()));
    if (d != 0 && numel > kLimit / static_cast<uint64_t>(d)) {
      return Status::InvalidInput(source, fmt::format("shape {} has too many elements", t.ShapeString()));
    }
    numel *= static_cast<uint64_t>(d);
  }
  if (numel == 0) return Status::Ok();
  // Largest storage element addressed: offset + Σ (dim-1)·stride (negative strides are not produced
  // by any writer and are refused).
  const std::vector<int64_t> strides = t.strides.empty() ? ContiguousStrides(t.shape) : t.strides;
  uint64_t last = static_cast<uint64_t>(t.storage_offset);
  for (size_t i = 0; i < t.shape.size(); ++i) {
    if (strides[i] < 0) return Status::InvalidInput(source, fmt::format("negative stride {}", strides[i]));
    const uint64_t step = static_cast<uint64_t>(t.shape[i] - 1);
    const auto stride = static_cast<uint64_t>(strides[i]);
    if (stride != 0 && step > (kLimit - last) / stride) {
      return Status::InvalidInput(source, "strides address elements beyond any storage");
    }
    last += step * stride;
  }
  if (last >= t.storage_elements) {
    return Status::InvalidInput(source, fmt::format("tensor {} at storage offset {} needs {} elements, storage has {}",
                                                    t.ShapeString(), t.storage_offset, last + 1, t.storage_elements));
  }
  return Status::Ok();
}

}  // namespace msprobe
