// Process-wide capture state.
#include "capture_state.h"

#include <pthread.h>
#include <unistd.h>

#include <cstdlib>
#include <new>

#include "delegate_dump.h"
#include "real_acl.h"

namespace msprobe::capture {
namespace {

std::atomic<CaptureState*> g_state{nullptr};
pthread_once_t g_once = PTHREAD_ONCE_INIT;
thread_local int32_t t_device = -1;

constexpr int kDrainTimeoutMs = 60000;
constexpr int kExitDrainTimeoutMs = 10000;

int64_t EnvRank() {
  for (const char* name : {"RANK_ID", "RANK"}) {
    const char* v = std::getenv(name);
    if (v == nullptr || *v == '\0') continue;
    char* end = nullptr;
    const long long r = std::strtoll(v, &end, 10);
    if (*end == '\0' && r >= 0) return r;
  }
  return -1;
}

void FatalFromWriter(const char* why) {
  if (CaptureState* s = g_state.load()) s->Stop(why);
}

}  // namespace

void Log(const char* text) noexcept {
  char buf[512];
  const int n = std::snprintf(buf, sizeof buf, "msprobe-capture: %s\n", text);
  if (n > 0) (void)!::write(2, buf, static_cast<size_t>(n) < sizeof buf ? static_cast<size_t>(n) : sizeof buf - 1);
}

CaptureState* CaptureState::Get() noexcept {
  if (CaptureState* s = g_state.load(std::memory_order_acquire)) return s;
  pthread_once(&g_once, [] {
    auto* s = new (std::nothrow) CaptureState();
    if (s == nullptr) return;
    s->Start();
    g_state.store(s, std::memory_order_release);
  });
  return g_state.load(std::memory_order_acquire);
}

void CaptureState::Start() noexcept {
  try {
    std::string error;
    auto config = ReadConfig(&error);
    if (!config) {
      Log(("capture off: " + error).c_str());
      return;
    }
    config_ = std::move(*config);
    if (!config_.enabled) return;
    writer_ = new DumpWriter(config_, FatalFromWriter);
    env_rank_ = EnvRank();
    config_ok_ = true;
    pthread_atfork(PrepareFork, ParentAfterFork, ChildAfterFork);
    std::atexit(AtExit);
    UpdateActive();
  } catch (...) {
    Log("capture off: internal error while starting");
    config_ok_ = false;
  }
}

void CaptureState::UpdateActive() noexcept {
  const bool rank_ok = config_.ranks.empty() || config_.ranks.Contains(Rank());
  active_.store(config_ok_ && !stopped_.load() && !finalized_.load() && rank_ok);
}

void CaptureState::Stop(const char* why) noexcept {
  if (stopped_.exchange(true)) return;
  active_.store(false);
  char buf[300];
  std::snprintf(buf, sizeof buf, "capture stopped: %s; the program continues uncaptured", why);
  Log(buf);
}

void CaptureState::OnInit() noexcept {
  finalized_.store(false);
  UpdateActive();
}

void CaptureState::OnSetDevice(int32_t device) noexcept {
  t_device = device;
  last_device_.store(device);
  UpdateActive();
  if (Active() && config_.delegate) StartDelegate(*this);
}

int32_t CaptureState::Device() const noexcept { return t_device >= 0 ? t_device : last_device_.load(); }

uint32_t CaptureState::Rank() const noexcept {
  return static_cast<uint32_t>(env_rank_ >= 0 ? env_rank_ : Device());
}

StreamInfo* CaptureState::OnCreateStream(aclrtStream stream) noexcept { return Stream(stream); }

StreamInfo* CaptureState::Stream(aclrtStream stream) noexcept {
  try {
    std::lock_guard lock(mu_);
    auto it = streams_.find(stream);
    if (it != streams_.end()) return it->second;
    auto* info = new StreamInfo();
    info->id = stream == nullptr ? 0 : next_stream_id_++;
    streams_.emplace(stream, info);
    return info;
  } catch (...) {
    return nullptr;
  }
}

bool CaptureState::Selected(const char* op_type, uint64_t seq) noexcept {
  if (!config_.exec_range.empty() && !config_.exec_range.Contains(seq)) return false;
  if (!config_.ops) return true;
  try {
    std::lock_guard lock(mu_);
    auto [it, inserted] = op_cache_.try_emplace(op_type, false);
    if (inserted) it->second = std::regex_search(op_type, *config_.ops);
    return it->second;
  } catch (...) {
    Stop("internal error while matching MSPROBE_CAPTURE_OPS");
    return false;
  }
}

void CaptureState::BeforeDestroyStream(aclrtStream stream) noexcept {
  StreamInfo* info = nullptr;
  {
    std::lock_guard lock(mu_);
    auto it = streams_.find(stream);
    if (it == streams_.end()) return;
    info = it->second;
    try {
      retired_.push_back(info);
    } catch (...) {  // keeping it reachable is only for leak checkers
    }
    streams_.erase(it);
  }
  if (info->pending_host_funcs.load() > 0 && Real().synchronize_stream) Real().synchronize_stream(stream);
}

void CaptureState::DrainAll() noexcept {
  if (!writer_ || InForkedChild()) return;
  bool pending = false;
  {
    std::lock_guard lock(mu_);
    for (const auto& [stream, info] : streams_) pending = pending || info->pending_host_funcs.load() > 0;
  }
  if (pending && Real().synchronize_device) Real().synchronize_device();
  if (!writer_->Drain(kDrainTimeoutMs)) {
    Stop("timed out waiting for captured tensors to be written");
    writer_->ForgetRuntime();
  }
  writer_->ReleasePool();
}

void CaptureState::BeforeResetDevice() noexcept { DrainAll(); }

void CaptureState::BeforeFinalize() noexcept {
  DrainAll();
  FinishDelegate(*this);
  finalized_.store(true);
  UpdateActive();
}

void CaptureState::PrepareFork() noexcept {
  CaptureState* s = g_state.load();
  if (!s) return;
  s->mu_.lock();
  if (s->writer_) s->writer_->PrepareFork();
}

void CaptureState::ParentAfterFork() noexcept {
  CaptureState* s = g_state.load();
  if (!s) return;
  if (s->writer_) s->writer_->ParentAfterFork();
  s->mu_.unlock();
}

// A forked child (e.g. a data-loader worker) never captures: its copies of the parent's queue and
// streams are not its own, so it forgets the streams (nothing to wait for at aclFinalize: their
// pending host functions run in the parent) and the lifecycle hooks become pass-throughs.
void CaptureState::ChildAfterFork() noexcept {
  CaptureState* s = g_state.load();
  if (!s) return;
  s->forked_child_.store(true);
  s->stopped_.store(true);
  s->active_.store(false);
  if (s->writer_) s->writer_->ChildAfterFork();
  s->streams_.clear();  // the StreamInfo objects stay allocated: records of the parent point at them
  s->mu_.unlock();
}

// A program that never calls aclFinalize: write what is ready while the runtime is still loaded.
void CaptureState::AtExit() noexcept {
  CaptureState* s = g_state.load();
  if (!s || !s->writer_ || s->stopped_.load()) return;
  s->active_.store(false);
  if (!s->writer_->Drain(kExitDrainTimeoutMs)) Log("exit: some captured tensors were not written");
  s->writer_->ReleasePool();
  s->writer_->ForgetRuntime();
}

}  // namespace msprobe::capture
