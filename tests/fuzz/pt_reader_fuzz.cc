// libFuzzer target: the .pt reader (zip central directory, data.pkl, storage member) on arbitrary
// bytes, then the checks every reader result must pass (a thin call into the library).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "msprobe/dump/formats/pt_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const msprobe::Bytes bytes(reinterpret_cast<const std::byte*>(data), size);
  msprobe::Result<msprobe::TensorInfo> info = msprobe::ParsePt(bytes, "fuzz.pt");
  if (!info.ok()) return 0;
  // A parsed tensor must already satisfy ValidateExtent and its storage must lie inside the input.
  if (!msprobe::ValidateExtent(*info, "fuzz.pt").ok()) std::abort();
  const uint64_t needed = msprobe::ByteSize(info->dtype, info->storage_elements);
  if (info->data_offset > size || needed > size - info->data_offset) std::abort();
  return 0;
}
