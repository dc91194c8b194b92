// Reuse of the float64 tensors' largest blocks for the length of a recompute (docs/ops.md §4, "Where the
// float64 values live").
#pragma once

#include <cstdint>

namespace msprobe::ops {

// The largest tensor whose values oneTBB's scalable allocator keeps for the next tensor once freed, by
// default: a block of 64 MiB with its header. A larger one it unmaps unless an Fp64BlockCache is alive.
inline constexpr uint64_t kFp64BytesKeptAnyway = (uint64_t{64} << 20) - 4096;

// While one is alive, the scalable allocator (which holds every `Fp64Values`) keeps a freed block of
// any size for the next tensor, under a soft limit of `limit_bytes` on all the memory it holds, in use
// and kept: each time it maps more while over it, it returns everything it keeps. When the last one
// alive ends, it returns everything it keeps and caches as it did before. Scopes may overlap (the
// attribution checks both dumps at once): the limit is the largest asked for meanwhile. Under
// AddressSanitizer it does nothing, as the values are not the scalable allocator's there.
class Fp64BlockCache {
 public:
  explicit Fp64BlockCache(uint64_t limit_bytes);
  ~Fp64BlockCache();
  Fp64BlockCache(const Fp64BlockCache&) = delete;
  Fp64BlockCache& operator=(const Fp64BlockCache&) = delete;
};

}  // namespace msprobe::ops
