#include "msprobe/dump/files/content_hash.h"

#include <isa-l/crc64.h>

#include <algorithm>

#include "msprobe/dump/files/tensor_file.h"
#include "msprobe/dump/tensor/tensor_source.h"

namespace msprobe {
namespace {

uint64_t Crc(uint64_t crc, const void* data, size_t size) {
  return crc64_ecma_refl(crc, static_cast<const uint8_t*>(data), size);
}

}  // namespace

ContentHasher::ContentHasher(DType dtype, const std::vector<int64_t>& shape) {
  const auto code = static_cast<uint8_t>(dtype);
  crc_ = Crc(0, &code, 1);
  for (int64_t d : shape) crc_ = Crc(crc_, &d, sizeof d);
}

void ContentHasher::Add(Bytes elements) { crc_ = Crc(crc_, elements.data(), elements.size()); }

Result<uint64_t> TensorContentHash(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(TensorInfo info, ReadTensorFile(path));
  MSP_ASSIGN_OR_RETURN(TensorSource source, TensorSource::Open(info));
  ContentHasher hasher(info.dtype, info.shape);
  MSP_RETURN_IF_ERROR(source.ForEachWindow([&](uint64_t, uint64_t, Bytes bytes) { hasher.Add(bytes); }));
  return hasher.value();
}

}  // namespace msprobe
