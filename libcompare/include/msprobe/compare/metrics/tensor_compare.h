// Tensor ("ALL") mode metrics of one matched row (docs/compare.md §4.2): Cosine, EucDist, MaxAbsErr,
// MaxRelativeErr and the two error ratios of a target tensor file against its golden tensor file. Both
// files are streamed once, in bounded windows, so memory does not grow with the tensor size.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "msprobe/compare/metrics/right_matmul.h"
#include "msprobe/compare/rows/consistent_keys.h"
#include "msprobe/compare/table/cell.h"
#include "msprobe/dump/util/status.h"
#include "msprobe/dump/tensor/tensor.h"

namespace msprobe::compare {

struct TensorCompareInput {
  std::string target_data_name = "-1", golden_data_name = "N/A";  // "-1": no data file; golden "N/A": unmatched
  bool golden_matched = false;                                  // false: the "api unmatched" row
  std::string target_tensor_dir, golden_tensor_dir;                // <dir of dump.json>/dump_tensor_data
  // Rows (along axis 0 of the squeezed target tensor) from this one on are read as zeros: MoE scratch
  // rows (docs/compare.md §4.2 step 3). -1: none.
  int64_t target_valid_rows = -1;
};

struct TensorCompareOptions {
  // Elements read from each file per window. Rounded up to a whole number of the kernel's 4096-element
  // blocks, so results do not depend on it. Tensors over four windows are compared on several threads.
  uint64_t chunk_elements = uint64_t{1} << 20;
  // G3 np.squeezes both tensors first (docs/compare.md §4.2); the kernel-dump compare does not, and gives a
  // length-1 vector an "unsupported" Cosine (docs/kernel_dump.md §6.2).
  bool squeeze = true;
  // --tensor-postprocess: the right_matmul products of step 3; null or empty: none.
  const RightMatmul* right_matmul = nullptr;
  // --consistent_check: a joined row's files are read as msprobe's verl reader reads them (one, or
  // concatenated; docs/compare.md §3.9).
  ConsistentBackend consistent = ConsistentBackend::kNone;
};

// The six metric cells in TensorMetric order, as msprobe G3 fills them (docs/compare.md §4.2 steps 1-6):
// "unsupported" for rows without data, unreadable or empty files; six "shape unmatched" when the
// squeezed shapes differ; six "N/A" when the NaN/Inf positions differ; "Nan" cells where msprobe
// writes CompareConst.NAN. Thread-safe; it may use TBB itself for large tensors. When a file is
// missing, refused or unreadable, `unreadable` (if given) receives why. `target_hash` (if given)
// receives the target file's content hash (files/content_hash.h) when the metrics read all its
// elements, in order, on one thread, as the file holds them (no product, no joined read); otherwise it
// is left as it was.
std::array<Cell, 6> CompareTensors(const TensorCompareInput& input, const TensorCompareOptions& options = {},
                                   Status* unreadable = nullptr, std::optional<uint64_t>* target_hash = nullptr);

// Steps 4-6 of the same on two tensors a reader has already described (kernel dumps, raw files):
// "unsupported" when either cannot be streamed, then as CompareTensors.
std::array<Cell, 6> CompareTensorInfos(const TensorInfo& target, const TensorInfo& golden,
                                       const TensorCompareOptions& options = {});

}  // namespace msprobe::compare
