// libFuzzer target: the kernel .bin reader on arbitrary bytes, then the layout planner on every slot
// it accepts. Invariants: each slot's bytes lie inside the input, and no gather offset of a plan can
// leave its slot's device buffer.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "msprobe/dump/formats/bin_reader.h"
#include "msprobe/dump/kernel/layout_convert.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const msprobe::Bytes bytes(reinterpret_cast<const std::byte*>(data), size);
  msprobe::Result<msprobe::BinFile> bin = msprobe::ParseBin(bytes, "fuzz.bin");
  if (!bin.ok()) return 0;
  for (const msprobe::BinSlot& slot : bin->slots) {
    const msprobe::TensorInfo& t = slot.tensor;
    const uint64_t needed = msprobe::ByteSize(t.dtype, t.storage_elements);
    if (t.data_offset > size || needed > size - t.data_offset) std::abort();
    if (!slot.dtype) continue;
    const msprobe::LayoutPlan plan = msprobe::PlanLayout(slot, false);
    for (const msprobe::GatherBlock& block : plan.blocks) {
      uint64_t last = 0;
      for (const auto& offsets : block.offsets) {
        uint64_t max = 0;
        for (uint64_t o : offsets) max = o > max ? o : max;
        last += max;
      }
      if (last >= t.storage_elements) std::abort();
    }
  }
  return 0;
}
