// libFuzzer target: the kernel dump name parsers on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "msprobe/dump/kernel/kernel_dump_name.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  msprobe::Result<msprobe::KernelDumpName> name = msprobe::ParseKernelDumpName(text);
  // A raw name must come with a dtype to read its bytes in.
  if (name.ok() && !name->npy && !name->dtype) std::abort();
  (void)msprobe::IsKernelBinDumpName(text);
  return 0;
}
