// Devices, memory, streams and descriptions of the fake runtime.
#include "fake_runtime.h"

#include <pthread.h>

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <set>
#include <thread>

namespace fake_acl {
namespace {

constexpr uint64_t kMagic = 0x4d53505246414b45ull;  // "MSPRFAKE"
constexpr size_t kHeader = 64;

struct Stream {
  uint32_t id = 0;
  std::mutex mu;
  std::condition_variable work_cv, idle_cv;
  std::deque<std::function<void()>> tasks;
  bool busy = false;
  bool stop = false;
  std::thread worker;

  void Run() {
    const int64_t delay_us = EnvInt("FAKE_ACL_TASK_DELAY_US", 0);
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock lock(mu);
        work_cv.wait(lock, [&] { return stop || !tasks.empty(); });
        if (tasks.empty()) return;
        task = std::move(tasks.front());
        tasks.pop_front();
        busy = true;
      }
      if (delay_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
      task();
      {
        std::lock_guard lock(mu);
        busy = false;
      }
      idle_cv.notify_all();
    }
  }
  void Sync() {
    std::unique_lock lock(mu);
    idle_cv.wait(lock, [&] { return tasks.empty() && !busy; });
  }
};

std::mutex g_streams_mu;
std::set<Stream*> g_streams;
uint32_t g_next_stream_id = 1;
bool g_initialized = false;
thread_local int32_t t_device = -1;
pthread_once_t g_fork_once = PTHREAD_ONCE_INIT;

// A program may fork while other threads are inside the runtime (data-loader workers do), and the child
// may call ACL on the null stream: the global locks are taken around fork() as glibc does for malloc, so
// the child never starts with one held by a thread it does not have. Stream queues stay the parent's.
void LockForFork() {
  g_streams_mu.lock();
  LockDumpForFork();
}

void UnlockAfterFork() {
  UnlockDumpAfterFork();
  g_streams_mu.unlock();
}

}  // namespace

int64_t EnvInt(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoll(v, nullptr, 10) : fallback;
}

void Enqueue(aclrtStream stream, std::function<void()> task) {
  if (stream == nullptr) {
    task();
    return;
  }
  auto* s = static_cast<Stream*>(stream);
  {
    std::lock_guard lock(s->mu);
    s->tasks.push_back(std::move(task));
  }
  s->work_cv.notify_one();
}

uint32_t StreamId(aclrtStream stream) { return stream ? static_cast<Stream*>(stream)->id : 0; }
int32_t CurrentDevice() { return t_device < 0 ? 0 : t_device; }

size_t ItemSize(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
    case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 0;
  }
}

int64_t NumElements(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d < 0 ? 0 : d;
  return n;
}

}  // namespace fake_acl

using fake_acl::Stream;

extern "C" {

aclError aclInit(const char*) noexcept {
  pthread_once(&fake_acl::g_fork_once, [] {
    pthread_atfork(fake_acl::LockForFork, fake_acl::UnlockAfterFork, fake_acl::UnlockAfterFork);
  });
  if (fake_acl::EnvInt("FAKE_ACL_REPEAT_INIT", 0) == 1 || fake_acl::g_initialized) return ACL_ERROR_REPEAT_INITIALIZE;
  fake_acl::g_initialized = true;
  return ACL_SUCCESS;
}

aclError aclFinalize(void) noexcept {
  fake_acl::g_initialized = false;
  return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) noexcept {
  if (deviceId < 0 || deviceId > 15) return ACL_ERROR_INVALID_PARAM;
  fake_acl::t_device = deviceId;
  return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t) noexcept { return aclrtSynchronizeDevice(); }

aclError aclrtGetDevice(int32_t* deviceId) noexcept {
  if (deviceId == nullptr) return ACL_ERROR_INVALID_PARAM;
  *deviceId = fake_acl::CurrentDevice();
  return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream* stream) noexcept {
  if (stream == nullptr) return ACL_ERROR_INVALID_PARAM;
  auto* s = new Stream();
  {
    std::lock_guard lock(fake_acl::g_streams_mu);
    s->id = fake_acl::g_next_stream_id++;
    fake_acl::g_streams.insert(s);
  }
  s->worker = std::thread(&Stream::Run, s);
  *stream = s;
  return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) noexcept {
  auto* s = static_cast<Stream*>(stream);
  {
    std::lock_guard lock(fake_acl::g_streams_mu);
    if (!fake_acl::g_streams.erase(s)) return ACL_ERROR_INVALID_PARAM;
  }
  {
    std::lock_guard lock(s->mu);
    s->stop = true;
  }
  s->work_cv.notify_one();
  s->worker.join();  // runs what is queued first
  delete s;
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) noexcept {
  if (stream != nullptr) static_cast<Stream*>(stream)->Sync();
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) noexcept {
  std::vector<Stream*> all;
  {
    std::lock_guard lock(fake_acl::g_streams_mu);
    all.assign(fake_acl::g_streams.begin(), fake_acl::g_streams.end());
  }
  for (Stream* s : all) s->Sync();
  return ACL_SUCCESS;
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) noexcept {
  if (fn == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (fake_acl::EnvInt("FAKE_ACL_FAIL_HOST_FUNC", 0) == 1) return ACL_ERROR_INTERNAL_ERROR;
  fake_acl::Enqueue(stream, [fn, args] { fn(args); });
  return ACL_SUCCESS;
}

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy) noexcept {
  if (devPtr == nullptr || size == 0) return ACL_ERROR_INVALID_PARAM;
  auto* base = static_cast<unsigned char*>(std::malloc(size + fake_acl::kHeader));
  if (base == nullptr) return ACL_ERROR_INTERNAL_ERROR;
  std::memcpy(base, &fake_acl::kMagic, 8);
  std::memcpy(base + 8, &size, sizeof size);
  *devPtr = base + fake_acl::kHeader;
  return ACL_SUCCESS;
}

// Freed device memory is poisoned (0xFF: NaN for floats) so that a capture reading it late shows up.
aclError aclrtFree(void* devPtr) noexcept {
  if (devPtr == nullptr) return ACL_ERROR_INVALID_PARAM;
  auto* base = static_cast<unsigned char*>(devPtr) - fake_acl::kHeader;
  uint64_t magic;
  size_t size;
  std::memcpy(&magic, base, 8);
  if (magic != fake_acl::kMagic) return ACL_ERROR_INVALID_PARAM;
  std::memcpy(&size, base + 8, sizeof size);
  std::memset(devPtr, 0xFF, size);
  std::memset(base, 0, 8);
  std::free(base);
  return ACL_SUCCESS;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) noexcept {
  if (hostPtr == nullptr || size == 0) return ACL_ERROR_INVALID_PARAM;
  *hostPtr = std::malloc(size);
  return *hostPtr ? ACL_SUCCESS : ACL_ERROR_INTERNAL_ERROR;
}

aclError aclrtFreeHost(void* hostPtr) noexcept {
  std::free(hostPtr);
  return ACL_SUCCESS;
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind) noexcept {
  if (count > destMax || (count && (dst == nullptr || src == nullptr))) return ACL_ERROR_INVALID_PARAM;
  std::memcpy(dst, src, count);
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind,
                          aclrtStream stream) noexcept {
  if (count > destMax || (count && (dst == nullptr || src == nullptr))) return ACL_ERROR_INVALID_PARAM;
  fake_acl::Enqueue(stream, [=] { std::memcpy(dst, src, count); });
  return ACL_SUCCESS;
}

aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t* dims, aclFormat format) noexcept {
  if (numDims < 0 || (numDims > 0 && dims == nullptr)) return nullptr;
  return new aclTensorDesc{dataType, format, std::vector<int64_t>(dims, dims + numDims)};
}

void aclDestroyTensorDesc(const aclTensorDesc* desc) noexcept { delete desc; }
aclDataType aclGetTensorDescType(const aclTensorDesc* desc) noexcept { return desc ? desc->dtype : ACL_DT_UNDEFINED; }
aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc) noexcept {
  return desc ? desc->format : ACL_FORMAT_UNDEFINED;
}
size_t aclGetTensorDescSize(const aclTensorDesc* desc) noexcept {
  return desc ? static_cast<size_t>(fake_acl::NumElements(desc->dims)) * fake_acl::ItemSize(desc->dtype) : 0;
}
size_t aclGetTensorDescNumDims(const aclTensorDesc* desc) noexcept { return desc ? desc->dims.size() : 0; }
aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index, int64_t* dimSize) noexcept {
  if (desc == nullptr || dimSize == nullptr || index >= desc->dims.size()) return ACL_ERROR_INVALID_PARAM;
  *dimSize = desc->dims[index];
  return ACL_SUCCESS;
}

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) noexcept { return new aclDataBuffer{data, size}; }
aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) noexcept {
  delete dataBuffer;
  return ACL_SUCCESS;
}
void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) noexcept { return dataBuffer ? dataBuffer->data : nullptr; }
size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) noexcept { return dataBuffer ? dataBuffer->size : 0; }

aclopAttr* aclopCreateAttr(void) noexcept { return new aclopAttr(); }
void aclopDestroyAttr(const aclopAttr* attr) noexcept { delete attr; }
aclError aclopSetAttrFloat(aclopAttr* attr, const char* attrName, float attrValue) noexcept {
  if (attr == nullptr || attrName == nullptr) return ACL_ERROR_INVALID_PARAM;
  attr->floats[attrName] = attrValue;
  return ACL_SUCCESS;
}
aclError aclopSetAttrBool(aclopAttr* attr, const char* attrName, uint8_t attrValue) noexcept {
  if (attr == nullptr || attrName == nullptr) return ACL_ERROR_INVALID_PARAM;
  attr->bools[attrName] = attrValue != 0;
  return ACL_SUCCESS;
}

}  // extern "C"
