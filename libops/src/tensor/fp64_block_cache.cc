#include "msprobe/ops/tensor/fp64_block_cache.h"

#include <tbb/scalable_allocator.h>

#include <algorithm>
#include <cstdint>
#include <mutex>

#include "msprobe/dump/util/sanitizers.h"

namespace msprobe::ops {
namespace {

// oneTBB caches a freed block of over 64 MB only at or above its "huge size threshold", and never
// returns those in its regular, age-based cleanup: only the soft heap limit or a clean-all does.
constexpr intptr_t kCacheEverySize = intptr_t{64} << 20;
// The threshold oneTBB starts with (its largest cached size, 1 TiB on 64-bit): nothing over 64 MB kept.
constexpr intptr_t kOneTbbDefault = intptr_t{1} << 40;

std::mutex scopes_mutex;
int scopes_alive = 0;
uint64_t scopes_limit = 0;

}  // namespace

Fp64BlockCache::Fp64BlockCache(uint64_t limit_bytes) {
  if (MSPROBE_UNDER_ASAN) return;
  std::lock_guard lock(scopes_mutex);
  if (scopes_alive++ == 0) scalable_allocation_mode(TBBMALLOC_SET_HUGE_SIZE_THRESHOLD, kCacheEverySize);
  scopes_limit = std::max(scopes_limit, std::max<uint64_t>(limit_bytes, 1));  // 0 would mean no limit
  scalable_allocation_mode(TBBMALLOC_SET_SOFT_HEAP_LIMIT,
                           static_cast<intptr_t>(std::min<uint64_t>(scopes_limit, INTPTR_MAX)));
}

Fp64BlockCache::~Fp64BlockCache() {
  if (MSPROBE_UNDER_ASAN) return;
  std::lock_guard lock(scopes_mutex);
  if (--scopes_alive > 0) return;
  scopes_limit = 0;
  scalable_allocation_mode(TBBMALLOC_SET_SOFT_HEAP_LIMIT, 0);  // 0: no limit
  scalable_allocation_mode(TBBMALLOC_SET_HUGE_SIZE_THRESHOLD, kOneTbbDefault);
  scalable_allocation_command(TBBMALLOC_CLEAN_ALL_BUFFERS, nullptr);
}

}  // namespace msprobe::ops
