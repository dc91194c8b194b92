// The shim's only writer of files. Owns the in-flight memory budget, the queue of records whose host
// copies are complete, and one background thread that turns each record into a .bin file (tensor mode)
// or statistic.csv rows (stats mode), always as name.tmp + rename, plus a manifest.jsonl line per op.
// Output tree: {dir}/rank_{r}/{YYYYMMDDHHMMSS}/{device}/{files}, manifest.jsonl in the timestamp dir.
// Thread-safe; fork-safe through PrepareFork/ParentAfterFork/ChildAfterFork.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "capture_record.h"
#include "config.h"

namespace msprobe::capture {

class DumpWriter {
 public:
  // `on_fatal` is called (from any thread) when writing failed in a way that should stop capture.
  DumpWriter(const Config& config, void (*on_fatal)(const char* why));

  // Charges `bytes` of host copies against the budget. When they do not fit: false, or with `wait` (the
  // block policy) waits at most a minute for the writer to free memory. Never true for bytes > budget.
  bool Reserve(uint64_t bytes, bool wait);
  // Host memory for one slot: a pooled buffer of exactly `size` bytes if one is free (training loops
  // repeat their shapes; pinned allocation is costly and fresh pages fault in), else aclrtMallocHost.
  // Only after Reserve() charged the bytes. Null on failure.
  void* TakeHostBuffer(uint64_t size);
  // Frees the pool (before the runtime is finalized or the device reset).
  void ReleasePool();
  // Returns a host buffer from TakeHostBuffer to the pool (or, after ForgetRuntime, keeps it).
  void GiveBack(void* buffer, uint64_t size);
  // A record now exists: counted until Finish() is done with it.
  void Track() { outstanding_.fetch_add(1, std::memory_order_relaxed); }
  // Hands over a record whose copies are complete (or that failed). Allocation-free and non-blocking
  // apart from a short lock: safe from the runtime's host-function thread.
  void Push(CaptureRecord* record) noexcept;
  // Waits until every tracked record is finished, up to `timeout_ms`. False on timeout.
  bool Drain(int timeout_ms);
  // After this, host buffers are leaked instead of freed (the runtime is gone or going).
  void ForgetRuntime() { runtime_gone_.store(true); }

  // The .bin file of `r` (tensor mode), written by the caller: opens {device dir}/{name}.tmp and writes
  // the length and header; the slots' bytes follow with AppendStreamed, then CloseTensorFile. Returns
  // the fd, or -1 with `*reason` set. `*file` is the manifest's name, `*bytes` the whole file's size.
  int OpenTensorFile(const CaptureRecord& r, std::string* final_path, std::string* file, uint64_t* bytes,
                     const char** reason);
  // Closes `fd`; renames it to `final_path` when `keep`, else removes it. The reason when keeping failed.
  const char* CloseTensorFile(int fd, const std::string& final_path, bool keep);

  // Writes `size` bytes arriving in order as chunks into {device dir}/{name}: Open, Append…, Close.
  // Used by delegate mode. Each returns false (and cleans up) on failure.
  int OpenStreamed(uint32_t rank, int32_t device, std::string_view name, std::string* final_path);
  bool AppendStreamed(int fd, const void* data, uint64_t size);
  bool CloseStreamed(int fd, const std::string& final_path, uint32_t rank, int32_t device, uint64_t bytes);

  void PrepareFork();
  void ParentAfterFork();
  void ChildAfterFork();

  uint64_t dropped() const { return dropped_.load(); }

 private:
  void Loop();
  // Pool buffers that would push pooled + in-use bytes past the budget; caller frees them unlocked.
  std::vector<void*> TrimPoolLocked();
  void Finish(CaptureRecord* record);
  // Returns the reason for a drop, or nullptr when written.
  const char* WriteTensors(const CaptureRecord& r, std::string* file, uint64_t* bytes);
  const char* WriteStats(const CaptureRecord& r, std::string* stats_json);
  std::string RunDir(uint32_t rank) const;
  const char* DeviceDir(uint32_t rank, int32_t device, std::string* dir);
  bool DiskHasRoom(const std::string& dir, uint64_t bytes);
  void AppendLine(const std::string& path, const std::string& header, const std::string& line);
  void ManifestLine(uint32_t rank, const std::string& json);
  std::string PlaceName(const std::string& dir, const std::string& name);

  const Config& config_;
  void (*on_fatal_)(const char*);
  const std::string timestamp_;

  std::mutex mu_;  // queue, budget, thread start
  std::condition_variable ready_cv_, room_cv_, idle_cv_;
  CaptureRecord* head_ = nullptr;
  CaptureRecord* tail_ = nullptr;
  uint64_t in_use_ = 0;
  std::multimap<uint64_t, void*> pool_;  // size → free host buffer
  uint64_t pooled_bytes_ = 0;
  bool thread_started_ = false;

  std::mutex out_mu_;  // created dirs, appends to manifest / statistic.csv / mapping.csv
  std::set<std::string> made_dirs_;
  std::map<std::string, int> append_fds_;  // manifest.jsonl, statistic.csv, mapping.csv
  std::vector<void*> abandoned_;  // host buffers not freed after ForgetRuntime

  std::atomic<int64_t> outstanding_{0};
  std::atomic<uint64_t> dropped_{0};
  std::atomic<bool> runtime_gone_{false};
};

}  // namespace msprobe::capture
