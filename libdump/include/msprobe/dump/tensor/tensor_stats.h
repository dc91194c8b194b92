// Summary statistics of one tensor (max, min, mean, norm, NaN/Inf/zero counts) and the msprobe "md5"
// checksums (CRC-32, xor), computed in one bounded-memory pass over a TensorSource (docs/formats.md §1.4).
// Thread-safe: ComputeStats may run concurrently on different sources; it uses TBB internally.
#pragma once

#include <cstdint>

#include "msprobe/dump/tensor/dtype.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/dump/tensor/tensor_source.h"

namespace msprobe {

struct TensorStats {
  DType dtype = DType::kF32;
  uint64_t numel = 0;
  // Over the decoded values in double. NaN if any element is NaN (as torch max/min/mean/norm are).
  // complex: of the modulus |z|. bool: max = any (1/0), min = all (1/0), mean = fraction true,
  // norm = sqrt(count true). numel == 0: all four NaN and has_values = false.
  // The sums behind mean and norm are exact sums of double chunk sums, so they do not depend on the
  // window size, the thread count or the run (see stats_kernel_internal.h).
  double max = 0, min = 0, mean = 0, norm = 0;
  bool has_values = false;
  uint64_t nan_count = 0, pos_inf_count = 0, neg_inf_count = 0, zero_count = 0;
  // zlib CRC-32 of the elements' little-endian bytes in their own dtype, C order (summary_mode md5).
  // 0 for an empty tensor or when StatsOptions::crc32 is false.
  uint32_t crc32 = 0;
  // Only when StatsOptions::crc32_as_float32 and the dtype is bf16/f16/a float8 kind: CRC-32 of the
  // values converted to float32 little-endian bytes (what older msprobe and MindSpore wrote); else 0.
  uint32_t crc32_f32 = 0;
  // msprobe "xor" summary: the bytes zero-padded to a multiple of 8, read as little-endian uint64 words
  // and XORed. 0 when StatsOptions::xor64 is false. (msprobe writes a 0-d tensor's value instead; that
  // is the writer's business.)
  uint64_t xor64 = 0;
};

struct StatsOptions {
  bool crc32 = true;
  bool crc32_as_float32 = false;
  bool xor64 = true;
  // Upper bound on the bytes one window maps or gathers (memory stays about threads x window). Rounded
  // down to whole 512-element chunks, and at least one chunk.
  uint64_t window_bytes = uint64_t{8} << 20;
};

// One pass over `source` in windows read with TensorSource::Read. Windows are summarised in parallel
// (TBB, deterministic reduction) when there is more than one. Errors are those of TensorSource::Read.
Result<TensorStats> ComputeStats(const TensorSource& source, const StatsOptions& options = {});

}  // namespace msprobe
