#include "msprobe/dump/kernel/bin_convert.h"

#include <vector>

#include "tensor/host_dtype_internal.h"
#include "msprobe/dump/formats/npy_writer.h"
#include "msprobe/dump/formats/pt_writer.h"

namespace msprobe {
namespace {

// Streams the slot in host order into a Writer (NpyWriter or PtWriter: Create, Append, Finish),
// converting each chunk to the file's dtype `host(stored)` with `convert` when the two differ.
template <class Writer>
Status WriteSlot(const MappedFile& file, const BinSlot& slot, const LayoutPlan& plan, const std::string& path,
                 DType (*host)(DType), void (*convert)(DType, Bytes, uint64_t, std::byte*)) {
  const DType stored = *slot.dtype;
  const DType written = host(stored);
  // int4 reaches the sink already widened to int8, which is what gets written.
  const DType streamed = stored == DType::kI4 ? DType::kI8 : stored;
  MSP_ASSIGN_OR_RETURN(Writer writer, Writer::Create(path, written, plan.host_shape));
  std::vector<std::byte> converted;
  const uint64_t in_item = Info(streamed).bits / 8, out_item = Info(written).bits / 8;
  MSP_RETURN_IF_ERROR(StreamHostOrder(file, slot.tensor, plan, [&](Bytes chunk) -> Status {
    if (streamed == written) return writer.Append(chunk);
    const uint64_t count = chunk.size() / in_item;
    converted.resize(count * out_item);
    convert(stored, chunk, count, converted.data());
    return writer.Append(converted);
  }));
  return writer.Finish();
}

}  // namespace

Status WriteSlotNpy(const MappedFile& file, const BinSlot& slot, const LayoutPlan& plan, const std::string& path) {
  return WriteSlot<NpyWriter>(file, slot, plan, path, NpyDType, ConvertForNpy);
}

Status WriteSlotPt(const MappedFile& file, const BinSlot& slot, const LayoutPlan& plan, const std::string& path) {
  return WriteSlot<PtWriter>(file, slot, plan, path, PtDType, ConvertForPt);
}

}  // namespace msprobe
