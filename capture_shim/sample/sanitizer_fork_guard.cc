// clang < 18 AddressSanitizer takes none of its allocator locks around fork() (llvm/llvm-project#63224:
// a forked child stuck in SizeClassAllocator64::GetFromAllocator; fixed in LLVM 18 by PR #75290 "[asan]
// Install pthread_atfork"). Until the toolchain has that fix, the program does what the fix does.
#include "sanitizer_fork_guard.h"

#include <pthread.h>

#if defined(__clang__) && defined(__has_feature)
#if __has_feature(address_sanitizer) && __clang_major__ < 18
#define SAMPLE_ASAN_FORK_GUARD 1
#endif
#endif

#ifdef SAMPLE_ASAN_FORK_GUARD
// Internal, but global, functions of the static ASan runtime linked into this executable (LSan uses
// them to stop the world); the LLVM 18 handler calls the same three, in this order.
namespace __lsan {
void LockThreadRegistry();
void UnlockThreadRegistry();
void LockAllocator();
void UnlockAllocator();
}  // namespace __lsan
namespace __sanitizer {
void StackDepotLockAll();
void StackDepotUnlockAll();
}  // namespace __sanitizer
#endif

namespace sample {

void InstallSanitizerForkGuard() {
#ifdef SAMPLE_ASAN_FORK_GUARD
  static const auto before = [] {
    __lsan::LockThreadRegistry();
    __lsan::LockAllocator();
    __sanitizer::StackDepotLockAll();
  };
  static const auto after = [] {
    __sanitizer::StackDepotUnlockAll();
    __lsan::UnlockAllocator();
    __lsan::UnlockThreadRegistry();
  };
  pthread_atfork(before, after, after);
#endif
}

}  // namespace sample
