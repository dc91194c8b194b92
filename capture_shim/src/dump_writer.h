// The shim's only writer of files. Owns the in-flight memory budget, the queue of records whose host
// copies are complete, and one background thread that turns each record into a .bin file (tensor mode)
// or statistic.csv rows (stats mode), always as name.tmp + rename, plus a manifest.jsonl line per op.
// Output tree: {dir}/rank_{r}/{YYYYMMDDHHMMSS}/{device}/{files}, manifest.jsonl in the timestamp dir.
// Thread-safe; fork-safe through PrepareFork/ParentAfterFork/ChildAfterFork.
#pragma once

#include <atomic>
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

  // The .bin file's length and DumpData header (what precedes the data), and the data's size.
  static std::string EncodePrefix(const CaptureRecord& r, uint64_t* data_bytes);

  // O_DIRECT (MSPROBE_CAPTURE_DIRECT) needs memory and file offsets that are both multiples of
  // kDirectAlign. A write of at least MSPROBE_CAPTURE_DIRECT_MIN bytes whose memory is placed so that
  // (address - file offset) % kDirectAlign == 0 has its aligned middle written through a second fd
  // opened with O_DIRECT; the head and the tail, and everything when O_DIRECT is refused or fails, go
  // through the buffered fd. The file's bytes are the same either way.
  static constexpr uint64_t kDirectAlign = 4096;
  // Whether a write of `size` bytes is worth placing for O_DIRECT (false once it was refused).
  bool DirectWanted(uint64_t size) const {
    return config_.direct && size >= config_.direct_min && size >= kDirectAlign && !direct_refused_.load();
  }
  // Where to put `size` bytes bound for `file_offset` inside a buffer of size + kDirectAlign bytes at
  // `alloc` so that their address is congruent to the file offset.
  static char* PlaceForDirect(void* alloc, uint64_t file_offset) {
    const uint64_t delta = (file_offset - reinterpret_cast<uintptr_t>(alloc)) % kDirectAlign;
    return static_cast<char*>(alloc) + delta;
  }

  // The .bin file of `r` (tensor mode), written by the caller: opens {device dir}/{name}.tmp into `*f`
  // and writes the length and header (r.prefix when the hook encoded it); the slots' bytes follow with
  // AppendTensor, then CloseTensorFile. False with `*reason` set on failure. `*file` is the manifest's
  // name, `*bytes` the whole file's size.
  bool OpenTensorFile(const CaptureRecord& r, TensorFile* f, std::string* final_path, std::string* file,
                      uint64_t* bytes, const char** reason);
  // Appends `size` bytes at f->offset (see kDirectAlign). False when the write failed.
  bool AppendTensor(TensorFile* f, const void* data, uint64_t size);
  // Closes `f`; renames it to `final_path` when `keep`, else removes it. The reason when keeping failed.
  const char* CloseTensorFile(TensorFile* f, const std::string& final_path, bool keep);

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
  const char* WriteTensors(const CaptureRecord& r, std::string* file, uint64_t* bytes, uint64_t* direct_bytes);
  // Writes `size` bytes at f->offset through f->direct_fd (opened here when needed). Returns how many it
  // wrote; fewer than `size` when O_DIRECT was refused or failed (then never tried again).
  uint64_t WriteDirect(TensorFile* f, const char* data, uint64_t size);
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
  std::atomic<bool> direct_refused_{false};  // O_DIRECT refused or failed once: buffered from then on
};

}  // namespace msprobe::capture
