#include "io/pending_files_internal.h"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>

namespace msprobe::internal {
namespace {

// A fixed table, so the handler reads it without locks or allocation (async-signal-safe). Its pages
// are touched only by the slots in use. More outputs in flight at once than slots is not a case we
// have: a compare writes a few files per pair, a convert one per worker thread.
constexpr int kSlots = 256;
enum : int { kFree = 0, kFilling = 1, kLive = 2 };
struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
Slot g_slots[kSlots];

extern "C" void RemovePendingFilesAndDie(int sig) {
  for (Slot& slot : g_slots) {
    if (slot.state.load(std::memory_order_acquire) == kLive) ::unlink(slot.path);
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void InstallHandlers() {
  for (const int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
    struct sigaction act {};
    act.sa_handler = RemovePendingFilesAndDie;
    ::sigemptyset(&act.sa_mask);
    ::sigaction(sig, &act, nullptr);
  }
}

}  // namespace

int RegisterPendingFile(const char* path) {
  static std::once_flag installed;
  std::call_once(installed, InstallHandlers);
  const size_t size = std::strlen(path) + 1;
  if (size > PATH_MAX) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling, std::memory_order_acquire)) continue;
    std::memcpy(g_slots[i].path, path, size);
    g_slots[i].state.store(kLive, std::memory_order_release);
    return i;
  }
  return -1;
}

void ReleasePendingFile(int slot) {
  if (slot >= 0) g_slots[slot].state.store(kFree, std::memory_order_release);
}

}  // namespace msprobe::internal
