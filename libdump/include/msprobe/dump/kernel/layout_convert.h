// Device layout → host layout for kernel-dump slots (docs/kernel_dump.md §3): NC1HWC0, NC1HWC0_C04,
// FRACTAL_Z (4-D, 2-D, grouped), FRACTAL_Z_3D, NDC1HWC0, FRACTAL_NZ, C1HWNCoC0, NHWC and HWCN. The host
// tensor is gathered in C order from the device buffer, so padding is dropped by never reading it.
// Streaming keeps memory bounded: output goes out in chunks and the input pages read for a chunk are
// released before the next (at most about `window_bytes` of either is resident).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "msprobe/dump/formats/bin_reader.h"
#include "msprobe/dump/io/mapped_file.h"
#include "msprobe/dump/util/status.h"

namespace msprobe {

// Part of the host tensor in C order: element (i0, …, ir-1) of the block sits at device element
// Σ_d offsets[d][i_d] (the block's base is folded into offsets[0]). Every device format here maps each
// host dim independently, except grouped FRACTAL_Z, which needs one block per group.
struct GatherBlock {
  std::vector<int64_t> shape;
  std::vector<std::vector<uint64_t>> offsets;
};

struct LayoutPlan {
  std::vector<int64_t> host_shape;
  // The layout of the data as written: "NCHW", "NCDHW" or "ND" after a conversion, else the device
  // format's name (a plain format such as ND or NHWC, or a device layout that was kept).
  std::string format;
  bool converted = false;           // a gather runs (blocks is not empty)
  std::vector<GatherBlock> blocks;  // concatenated in order they make the host tensor
  // Why the device layout was kept (no converter, original_shape unknown or inconsistent, or asked
  // to), or a caveat on the conversion; empty otherwise.
  std::string note;
};

// Chooses how to write `slot` (§3.1–3.3). Never fails: when the original shape does not fit the device
// shape the device layout is kept and `note` says why. `keep_device_format` skips every conversion.
LayoutPlan PlanLayout(const BinSlot& slot, bool keep_device_format);

// Receives consecutive chunks of host elements (whole elements, native byte order).
using ElementSink = std::function<Status(Bytes)>;

// Streams the elements of `tensor` (a slot's device tensor in `file`) in the host order `plan` gives,
// in the slot's own dtype, except int4, which arrives widened to int8 (§2.1 nibble order).
Status StreamHostOrder(const MappedFile& file, const TensorInfo& tensor, const LayoutPlan& plan,
                       const ElementSink& sink, uint64_t window_bytes = uint64_t{8} << 20);

}  // namespace msprobe
