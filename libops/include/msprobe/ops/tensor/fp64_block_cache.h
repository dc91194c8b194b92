// Reuse of the float64 tensors' largest blocks for the length of a recompute (docs/ops.md §4, "Where the
// float64 values live").
#pragma once

#include <cstdint>

namespace msprobe::ops {

// While one is alive, oneTBB's scalable allocator (which holds every `Fp64Values`) keeps a freed block
// of any size for the next tensor, not only those of up to 64 MB, and holds at most about `limit_bytes`
// in all, in use and kept: above it, it returns what it keeps to the system each time it maps more.
// When the last one alive ends, it returns everything it keeps and caches as it did before. Scopes may
// overlap (the attribution checks both dumps at once): the limit is the largest asked for meanwhile.
// Under AddressSanitizer it does nothing, as the values are not the scalable allocator's there.
class Fp64BlockCache {
 public:
  explicit Fp64BlockCache(uint64_t limit_bytes);
  ~Fp64BlockCache();
  Fp64BlockCache(const Fp64BlockCache&) = delete;
  Fp64BlockCache& operator=(const Fp64BlockCache&) = delete;
};

}  // namespace msprobe::ops
