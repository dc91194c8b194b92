// Delegate mode: the runtime's dump, written by the shim.
#include "delegate_dump.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "real_acl.h"

namespace msprobe::capture {
namespace {

constexpr size_t kMaxOpenFiles = 100;  // msprobe's cap on files assembled at once

struct OpenFile {
  int fd = -1;  // -1: not selected or failed, chunks are skipped
  std::string final_path;
  int32_t device = 0;
  uint64_t bytes = 0;
};

std::atomic<acldumpCallback> g_program_callback{nullptr};
std::atomic<bool> g_started{false};
std::mutex g_files_mu;
std::map<std::string, OpenFile>* g_files = nullptr;  // fileName → file being assembled; never freed

// {dump_path}/{time}/{device}/{name}: the device is the numeric parent directory, if there is one.
int32_t DeviceFromPath(const std::string& path, int32_t fallback) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos || slash == 0) return fallback;
  const size_t prev = path.rfind('/', slash - 1);
  const std::string dir = path.substr(prev == std::string::npos ? 0 : prev + 1, slash - (prev == std::string::npos ? 0 : prev + 1));
  if (dir.empty() || dir.size() > 6 || dir.find_first_not_of("0123456789") != std::string::npos) return fallback;
  return std::stoi(dir);
}

OpenFile OpenFor(CaptureState& state, const std::string& runtime_path) {
  OpenFile f;
  const std::string name = runtime_path.substr(runtime_path.rfind('/') + 1);
  const std::string op_type = name.substr(0, name.find('.'));
  if (!state.Selected(op_type.c_str(), state.NextSeq())) return f;
  f.device = DeviceFromPath(runtime_path, state.Device());
  f.fd = state.writer().OpenStreamed(state.Rank(), f.device, name, &f.final_path);
  return f;
}

int32_t ShimDumpCallback(const acldumpChunk* chunk, int32_t len) noexcept {
  if (acldumpCallback program = g_program_callback.load()) program(chunk, len);
  CaptureState* state = CaptureState::Get();
  // A forked child must not close or unlink the files its parent is assembling.
  if (chunk == nullptr || state == nullptr || state->InForkedChild()) return 0;
  try {
    const std::string key(chunk->fileName, strnlen(chunk->fileName, sizeof chunk->fileName));
    std::lock_guard lock(g_files_mu);
    auto it = g_files->find(key);
    if (it == g_files->end()) {
      if (!state->Active() || g_files->size() >= kMaxOpenFiles) return 0;
      it = g_files->emplace(key, OpenFor(*state, key)).first;
    }
    OpenFile& f = it->second;
    if (f.fd >= 0 && !state->Active()) {  // stopped mid-file: leave nothing that looks complete
      ::close(f.fd);
      ::unlink((f.final_path + ".tmp").c_str());
      f.fd = -1;
    }
    if (f.fd >= 0) {
      const bool ok = chunk->offset < 0
                          ? state->writer().AppendStreamed(f.fd, chunk->dataBuf, chunk->bufLen)
                          : ::pwrite(f.fd, chunk->dataBuf, chunk->bufLen, chunk->offset) == static_cast<ssize_t>(chunk->bufLen);
      f.bytes += chunk->bufLen;
      if (!ok) {
        ::close(f.fd);
        ::unlink((f.final_path + ".tmp").c_str());
        f.fd = -1;
        state->Stop("writing a runtime dump file failed");
      }
    }
    if (chunk->isLastChunk) {
      if (f.fd >= 0) state->writer().CloseStreamed(f.fd, f.final_path, state->Rank(), f.device, f.bytes);
      g_files->erase(it);
    }
  } catch (...) {
    state->Stop("internal error in the dump callback");
  }
  return 0;
}

std::string DumpConfigJson(const Config& c, const std::string& dump_path) {
  const char* mode = c.inputs && c.outputs ? "all" : (c.inputs ? "input" : "output");
  return std::string("{\"dump\": {\"dump_list\": [], \"dump_path\": \"") + dump_path + "\", \"dump_mode\": \"" + mode +
         "\", \"dump_data\": \"tensor\", \"dump_op_switch\": \"on\"}}\n";
}

}  // namespace

void StartDelegate(CaptureState& state) noexcept {
  if (g_started.exchange(true)) return;
  const RealAcl& acl = Real();
  if (!acl.init_dump || !acl.set_dump || !acl.reg_dump_callback || !acl.finalize_dump) {
    state.Stop("delegate mode: the runtime lacks aclmdlInitDump/aclmdlSetDump/acldumpRegCallback");
    return;
  }
  try {
    g_files = new std::map<std::string, OpenFile>();
    if (state.config().mode == CaptureMode::kStats) Log("delegate mode writes tensors: MSPROBE_CAPTURE_MODE=stats ignored");
    char cwd[4096];
    std::string dir = state.config().dir;
    if (dir[0] != '/' && getcwd(cwd, sizeof cwd)) dir = std::string(cwd) + "/" + dir;
    ::mkdir(dir.c_str(), 0750);
    const std::string cfg_path = dir + "/acl_dump_" + std::to_string(state.Rank()) + ".json";
    const std::string json = DumpConfigJson(state.config(), dir + "/runtime_dump");
    FILE* f = std::fopen(cfg_path.c_str(), "w");
    if (f == nullptr || std::fwrite(json.data(), 1, json.size(), f) != json.size() || std::fclose(f) != 0) {
      state.Stop("delegate mode: cannot write the acl dump config");
      return;
    }
    if (acl.init_dump() != ACL_SUCCESS || acl.reg_dump_callback(ShimDumpCallback, 0) != ACL_SUCCESS ||
        acl.set_dump(cfg_path.c_str()) != ACL_SUCCESS) {
      state.Stop("delegate mode: the runtime refused the dump configuration");
    }
  } catch (...) {
    state.Stop("delegate mode: internal error while starting");
  }
}

void FinishDelegate(CaptureState& state) noexcept {
  if (!state.config().delegate || state.InForkedChild() || !g_started.exchange(false)) return;
  if (Real().synchronize_device) Real().synchronize_device();
  if (Real().finalize_dump) Real().finalize_dump();
}

bool DelegateOwnsDump(const CaptureState& state) noexcept { return state.config().delegate && state.Active(); }

void ChainProgramCallback(acldumpCallback callback) noexcept { g_program_callback.store(callback); }

}  // namespace msprobe::capture
