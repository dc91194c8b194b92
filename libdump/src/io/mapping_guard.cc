#include "io/mapping_guard_internal.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace msprobe::internal {
namespace {

// A fixed table the handler can read without locks or allocation. Mappings alive at once are a few
// per worker thread (a window per side of a tensor pair, a json, a header).
constexpr int kSlots = 4096;
struct Slot {
  std::atomic<uintptr_t> begin{0}, end{0};  // end == 0: free
  std::atomic<bool> truncated{false};
};
Slot g_slots[kSlots];
std::atomic<int> g_next{0};  // where the next search for a free slot starts
struct sigaction g_previous {};

extern "C" void OnSigbus(int sig, siginfo_t* info, void* context) {
  const uintptr_t addr = reinterpret_cast<uintptr_t>(info->si_addr);
  for (Slot& slot : g_slots) {
    const uintptr_t end = slot.end.load(std::memory_order_acquire);
    const uintptr_t begin = slot.begin.load(std::memory_order_acquire);
    if (end == 0 || addr < begin || addr >= end) continue;
    const uintptr_t page = addr & ~(static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE)) - 1);
    // Zero pages over the rest of the mapping: the faulting read resumes, and no further page faults.
    if (::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
        MAP_FAILED) {
      break;
    }
    slot.truncated.store(true, std::memory_order_release);
    return;
  }
  if (g_previous.sa_flags & SA_SIGINFO) {
    g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(sig);
  } else {
    ::signal(SIGBUS, SIG_DFL);  // the faulting read runs again and ends the process, as unguarded
  }
}

void InstallHandler() {
  struct sigaction act {};
  act.sa_sigaction = OnSigbus;
  act.sa_flags = SA_SIGINFO | SA_ONSTACK;
  ::sigemptyset(&act.sa_mask);
  ::sigaction(SIGBUS, &act, &g_previous);
}

}  // namespace

int GuardMapping(void* base, size_t length) {
  static std::once_flag installed;
  std::call_once(installed, InstallHandler);
  const int start = g_next.fetch_add(1, std::memory_order_relaxed) & (kSlots - 1);
  for (int n = 0; n < kSlots; ++n) {
    Slot& slot = g_slots[(start + n) & (kSlots - 1)];
    uintptr_t expected = 0;
    // Claim with a placeholder end, so the handler never sees a half-written range.
    if (!slot.end.compare_exchange_strong(expected, 1, std::memory_order_acquire)) continue;
    slot.truncated.store(false, std::memory_order_relaxed);
    slot.begin.store(reinterpret_cast<uintptr_t>(base), std::memory_order_relaxed);
    slot.end.store(reinterpret_cast<uintptr_t>(base) + length, std::memory_order_release);
    return (start + n) & (kSlots - 1);
  }
  return -1;
}

bool MappingTruncated(int guard) { return guard >= 0 && g_slots[guard].truncated.load(std::memory_order_acquire); }

void ReleaseMappingGuard(int guard) {
  if (guard >= 0) g_slots[guard].end.store(0, std::memory_order_release);
}

}  // namespace msprobe::internal
