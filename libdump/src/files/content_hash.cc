#include "msprobe/dump/files/content_hash.h"

#include <isa-l/crc64.h>

#include <algorithm>

#include "msprobe/dump/files/tensor_file.h"
#include "msprobe/dump/tensor/tensor_source.h"

namespace msprobe {
namespace {

constexpr uint64_t kWindowElements = uint64_t{1} << 20;

uint64_t Crc(uint64_t crc, const void* data, size_t size) {
  return crc64_ecma_refl(crc, static_cast<const uint8_t*>(data), size);
}

}  // namespace

Result<uint64_t> TensorContentHash(const std::string& path) {
  MSP_ASSIGN_OR_RETURN(TensorInfo info, ReadTensorFile(path));
  MSP_ASSIGN_OR_RETURN(TensorSource source, TensorSource::Open(info));
  const uint8_t dtype = static_cast<uint8_t>(info.dtype);
  uint64_t crc = Crc(0, &dtype, 1);
  for (int64_t d : info.shape) crc = Crc(crc, &d, sizeof d);
  ElementWindow window;
  for (uint64_t first = 0; first < source.numel(); first += kWindowElements) {
    const uint64_t count = std::min(kWindowElements, source.numel() - first);
    MSP_RETURN_IF_ERROR(source.Read(first, count, &window));
    crc = Crc(crc, window.bytes().data(), window.bytes().size());
    MSP_RETURN_IF_ERROR(window.Intact());
  }
  return crc;
}

}  // namespace msprobe
