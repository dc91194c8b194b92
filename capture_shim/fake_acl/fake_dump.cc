// The fake runtime dump (docs/capture.md A8.6): after aclmdlInitDump + aclmdlSetDump with an acl.json whose
// dump_op_switch is "on", every op emits a real-format .bin (docs/kernel_dump.md §1.1) named
// {op_type}.{op_type}_{n}.{task_id}.{stream_id}.{timestamp} under {dump_path}/{time}/{device}/ — through
// the callback registered with acldumpRegCallback in FAKE_ACL_DUMP_CHUNK-byte chunks (offset -1,
// isLastChunk on the final one), or straight to that path when no callback is registered.
#include <sys/stat.h>
#include <sys/time.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "dtype_map.h"
#include "fake_runtime.h"
#include "proto_encoder.h"

namespace fake_acl {
namespace {

struct Session {
  bool initialized = false;
  bool enabled = false;
  bool inputs = true, outputs = true;
  std::string dump_path;
  std::string time_dir;
  acldumpCallback callback = nullptr;
};

std::mutex g_mu;
Session g_session;
std::atomic<uint64_t> g_op_count{0};
std::mutex g_task_mu;
std::map<uint32_t, uint64_t> g_tasks;  // stream id → next task id

// The string value of "key" in a flat JSON text (enough for acl.json).
std::string JsonString(const std::string& text, const std::string& key) {
  const size_t k = text.find("\"" + key + "\"");
  if (k == std::string::npos) return "";
  const size_t open = text.find('"', text.find(':', k) + 1);
  const size_t close = text.find('"', open + 1);
  return open == std::string::npos || close == std::string::npos ? "" : text.substr(open + 1, close - open - 1);
}

void MakeDirs(const std::string& path) {
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') ::mkdir(path.substr(0, i).c_str(), 0750);
  }
}

void Emit(const Session& s, const std::string& path, const std::string& bytes) {
  if (!s.callback) {
    MakeDirs(path.substr(0, path.rfind('/')));
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return;
  }
  const size_t chunk = static_cast<size_t>(EnvInt("FAKE_ACL_DUMP_CHUNK", 1 << 20));
  std::vector<unsigned char> buf(sizeof(acldumpChunk) + chunk);
  auto* c = reinterpret_cast<acldumpChunk*>(buf.data());
  std::snprintf(c->fileName, sizeof c->fileName, "%s", path.c_str());
  size_t pos = 0;
  do {
    const size_t n = std::min(chunk, bytes.size() - pos);
    std::memcpy(c->dataBuf, bytes.data() + pos, n);
    c->bufLen = static_cast<uint32_t>(n);
    c->offset = -1;
    c->flag = 0;
    pos += n;
    c->isLastChunk = pos == bytes.size() ? 1 : 0;
    s.callback(c, static_cast<int32_t>(sizeof(acldumpChunk) + n));
  } while (pos < bytes.size());
}

msprobe::capture::DumpTensor Describe(const TensorRef& t) {
  return {msprobe::capture::ProtoDType(t.dtype), msprobe::capture::ProtoFormat(t.format), t.dims,
          static_cast<uint64_t>(NumElements(t.dims)) * ItemSize(t.dtype)};
}

}  // namespace

std::function<void()> WithDump(const std::string& op_type, aclrtStream stream, const std::vector<TensorRef>& inputs,
                               const std::vector<TensorRef>& outputs, std::function<void()> kernel) {
  Session s;
  {
    std::lock_guard lock(g_mu);
    if (!g_session.enabled) return kernel;
    s = g_session;
  }
  const uint32_t stream_id = StreamId(stream);
  const int32_t device = CurrentDevice();
  uint64_t task;
  {
    std::lock_guard lock(g_task_mu);
    task = g_tasks[stream_id]++;
  }
  const uint64_t n = g_op_count.fetch_add(1);
  return [=] {
    timeval tv{};
    gettimeofday(&tv, nullptr);
    msprobe::capture::DumpHeader header;
    header.dump_time_us = static_cast<uint64_t>(tv.tv_sec) * 1000000u + static_cast<uint64_t>(tv.tv_usec);
    header.op_name = op_type + "_" + std::to_string(n);
    std::string data;
    if (s.inputs) {
      for (const TensorRef& t : inputs) {
        header.inputs.push_back(Describe(t));
        data.append(static_cast<const char*>(t.data), header.inputs.back().size);
      }
    }
    kernel();
    if (s.outputs) {
      for (const TensorRef& t : outputs) {
        header.outputs.push_back(Describe(t));
        data.append(static_cast<const char*>(t.data), header.outputs.back().size);
      }
    }
    const std::string encoded = msprobe::capture::EncodeDumpHeader(header);
    const std::string name = op_type + "." + header.op_name + "." + std::to_string(task) + "." +
                             std::to_string(stream_id) + "." + std::to_string(header.dump_time_us);
    Emit(s, s.dump_path + "/" + s.time_dir + "/" + std::to_string(device) + "/" + name,
         msprobe::capture::EncodeHeaderLength(encoded.size()) + encoded + data);
  };
}

void LockDumpForFork() {
  g_mu.lock();
  g_task_mu.lock();
}

void UnlockDumpAfterFork() {
  g_task_mu.unlock();
  g_mu.unlock();
}

}  // namespace fake_acl

extern "C" {

aclError aclmdlInitDump(void) noexcept {
  std::lock_guard lock(fake_acl::g_mu);
  fake_acl::g_session.initialized = true;
  return ACL_SUCCESS;
}

aclError aclmdlSetDump(const char* dumpCfgPath) noexcept {
  try {
    std::ifstream in(dumpCfgPath ? dumpCfgPath : "");
    if (!in) return ACL_ERROR_INVALID_PARAM;
    std::stringstream text;
    text << in.rdbuf();
    const std::string json = text.str();
    std::lock_guard lock(fake_acl::g_mu);
    fake_acl::Session& s = fake_acl::g_session;
    if (!s.initialized) return ACL_ERROR_INVALID_PARAM;
    s.dump_path = fake_acl::JsonString(json, "dump_path");
    if (s.dump_path.empty()) return ACL_ERROR_INVALID_PARAM;
    const std::string mode = fake_acl::JsonString(json, "dump_mode");
    s.inputs = mode != "output";
    s.outputs = mode != "input";
    s.enabled = fake_acl::JsonString(json, "dump_op_switch") == "on";
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    localtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &tm);
    s.time_dir = buf;
    return ACL_SUCCESS;
  } catch (...) {
    return ACL_ERROR_INTERNAL_ERROR;
  }
}

aclError aclmdlFinalizeDump(void) noexcept {
  std::lock_guard lock(fake_acl::g_mu);
  fake_acl::g_session = fake_acl::Session{};
  return ACL_SUCCESS;
}

aclError acldumpRegCallback(acldumpCallback messageCallback, int32_t flag) noexcept {
  if (flag != 0) return ACL_ERROR_INVALID_PARAM;  // "only 0 is supported"
  std::lock_guard lock(fake_acl::g_mu);
  fake_acl::g_session.callback = messageCallback;
  return ACL_SUCCESS;
}

}  // extern "C"
