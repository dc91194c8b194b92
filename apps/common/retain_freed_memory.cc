#include "common/retain_freed_memory.h"

#include <malloc.h>

namespace msprobe::cli {

void RetainFreedMemory() {
  // Both are hints: glibc still maps memory itself when the heap cannot grow.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

}  // namespace msprobe::cli
