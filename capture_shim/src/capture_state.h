// The shim's process-wide state: configuration, whether capture is on, rank and device, the streams it
// has seen, the writer, and the fork and exit handlers. Created on the first hook call and never
// destroyed (the writer thread may outlive static destructors). Every function is noexcept.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "acl_types.h"
#include "capture_record.h"
#include "config.h"
#include "dump_writer.h"

namespace msprobe::capture {

class CaptureState {
 public:
  // The state, created on first use; null only if creating it failed.
  static CaptureState* Get() noexcept;

  // True when ops should be captured now: enabled, configured correctly, rank selected, not stopped.
  bool Active() const noexcept { return active_.load(std::memory_order_relaxed); }
  // True in a child created by fork(): a pure pass-through that touches nothing of the parent's.
  bool InForkedChild() const noexcept { return forked_child_.load(std::memory_order_relaxed); }
  const Config& config() const noexcept { return config_; }
  DumpWriter& writer() noexcept { return *writer_; }

  // Turns capture off for the rest of the process with one log line; the host carries on.
  void Stop(const char* why) noexcept;

  // Lifecycle hooks (after the real call succeeded).
  void OnInit() noexcept;
  void OnSetDevice(int32_t device) noexcept;
  // Before forwarding: make every launched copy land, and finish writing (docs/capture.md A8.1 T0).
  void BeforeDestroyStream(aclrtStream stream) noexcept;
  void BeforeResetDevice() noexcept;
  void BeforeFinalize() noexcept;

  StreamInfo* OnCreateStream(aclrtStream stream) noexcept;
  StreamInfo* Stream(aclrtStream stream) noexcept;
  int32_t Device() const noexcept;
  uint32_t Rank() const noexcept;
  uint64_t NextSeq() noexcept { return seq_.fetch_add(1, std::memory_order_relaxed); }
  // The op-type regex and the exec range (docs/capture.md A8.2 step 1), with a per-type cache.
  bool Selected(const char* op_type, uint64_t seq) noexcept;

 private:
  CaptureState() = default;
  void Start() noexcept;
  void UpdateActive() noexcept;
  void DrainAll() noexcept;
  static void PrepareFork() noexcept;
  static void ParentAfterFork() noexcept;
  static void ChildAfterFork() noexcept;
  static void AtExit() noexcept;

  Config config_;
  bool config_ok_ = false;
  DumpWriter* writer_ = nullptr;
  std::atomic<bool> active_{false};
  std::atomic<bool> stopped_{false};
  std::atomic<bool> finalized_{false};
  std::atomic<bool> forked_child_{false};
  int64_t env_rank_ = -1;              // RANK_ID, else RANK; -1: use the device id
  std::atomic<int32_t> last_device_{0};
  std::atomic<uint64_t> seq_{0};

  std::mutex mu_;  // streams_, op_cache_
  std::unordered_map<aclrtStream, StreamInfo*> streams_;
  std::vector<StreamInfo*> retired_;  // destroyed streams: records may still point at them
  uint32_t next_stream_id_ = 1;
  std::unordered_map<std::string, bool> op_cache_;
};

// One line on stderr: "msprobe-capture: <text>".
void Log(const char* text) noexcept;

}  // namespace msprobe::capture
