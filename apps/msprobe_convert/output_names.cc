#include "msprobe_convert/output_names.h"

#include <fmt/format.h>

#include "msprobe/dump/kernel/dump_proto_enums.h"

namespace msprobe::convert_app {

std::string SlotFileName(std::string_view bin_name, const BinSlot& slot, std::string_view format) {
  return fmt::format("{}.{}.{}.{}.{}.npy", bin_name, SlotKindName(slot.kind), slot.index, format,
                     ProtoDTypeName(slot.proto_dtype));
}

std::string ShortName(std::string_view name) {
  // Two 64-bit FNV-1a hashes with different offset bases: 128 bits, ample for names within one dir.
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (char ch : name) {
    a = (a ^ static_cast<uint8_t>(ch)) * 0x100000001b3ull;
    b = (b ^ static_cast<uint8_t>(ch)) * 0x100000001b3ull;
  }
  return fmt::format("{:016x}{:016x}.npy", a, b);
}

}  // namespace msprobe::convert_app
