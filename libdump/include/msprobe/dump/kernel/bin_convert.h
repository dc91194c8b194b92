// Writes one kernel-dump slot as a .npy file: layout per a LayoutPlan (layout_convert.h), dtype per
// NpyDType (host_dtype.h), streamed in bounded chunks, committed atomically.
#pragma once

#include <string>

#include "msprobe/dump/formats/bin_reader.h"
#include "msprobe/dump/kernel/layout_convert.h"
#include "msprobe/dump/io/mapped_file.h"

namespace msprobe {

// REQUIRES: slot.dtype is set (slots without a decoder are the caller's to report).
Status WriteSlotNpy(const MappedFile& file, const BinSlot& slot, const LayoutPlan& plan, const std::string& path);
// The same as a torch .pt file (pt_writer.h), dtypes as PtDType (host_dtype_internal.h): bfloat16 kept.
Status WriteSlotPt(const MappedFile& file, const BinSlot& slot, const LayoutPlan& plan, const std::string& path);

}  // namespace msprobe
