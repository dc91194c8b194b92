// ComputeStats: cuts the tensor into windows and summarises them with the serial kernel, on several
// threads when there is more than one window. The only TBB user among the stats files.
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>

#include "msprobe/dump/tensor/tensor_stats.h"
#include "tensor/stats_kernel_internal.h"

namespace msprobe {
namespace {

using internal::StatsAccumulator;

// A run of consecutive windows, or the first error met in it.
struct Partial {
  StatsAccumulator stats;
  Status status;
};

}  // namespace

Result<TensorStats> ComputeStats(const TensorSource& source, const StatsOptions& options) {
  const DType dtype = source.info().dtype;
  const uint64_t numel = source.numel();
  const uint64_t window = internal::WindowElements(dtype, options.window_bytes);
  const uint64_t windows = (numel + window - 1) / window;

  // Appends window `index` to `partial`; windows arrive in order within one call.
  auto consume = [&](uint64_t index, ElementWindow* buffer, Partial* partial) {
    if (!partial->status.ok()) return;
    const uint64_t first = index * window;
    const uint64_t count = std::min(window, numel - first);
    Status status = source.Read(first, count, buffer);
    if (!status.ok()) {
      partial->status = std::move(status);
      return;
    }
    partial->stats.Consume(buffer->bytes(), count);
    partial->status = buffer->Intact();
  };

  Partial total{StatsAccumulator(dtype, options), Status::Ok()};
  if (windows <= 1) {  // the common small tensor: no task overhead
    ElementWindow buffer;
    if (windows == 1) consume(0, &buffer, &total);
  } else {
    // Grain 1 over window indices: each window is one task, and the deterministic reduce joins them in
    // a fixed tree. (The sums are exact across windows anyway; the CRCs need left-to-right joins.)
    total = tbb::parallel_deterministic_reduce(
        tbb::blocked_range<uint64_t>(0, windows, 1), total,
        [&](const tbb::blocked_range<uint64_t>& range, Partial partial) {
          ElementWindow buffer;  // one mapping or gather buffer alive per task
          for (uint64_t index = range.begin(); index != range.end(); ++index) consume(index, &buffer, &partial);
          return partial;
        },
        [](Partial left, const Partial& right) {
          if (left.status.ok()) {
            if (right.status.ok()) left.stats.Merge(right.stats);
            else left.status = right.status;
          }
          return left;
        });
  }
  if (!total.status.ok()) return total.status;
  return total.stats.Finalize();
}

}  // namespace msprobe
