// capture_bench: timings for the capture shim, run with and without LD_PRELOAD by
// capture_shim/bench/run_bench.sh.
//   capture_bench calls N        ns per aclopExecuteV2 call that the runtime rejects at once (the cost of
//                                the call path itself: with the shim loaded and capture disabled, the hook)
//   capture_bench small N        N Adds over 64 floats on one stream: µs per call spent in the issuing
//                                thread (the hook's cost in stats/tensor mode), then the total with the wait
//   capture_bench big MB N       N Adds over MB-sized float tensors on one stream, then aclFinalize
//                                (which waits for the shim's writes); prints seconds and MB/s of tensors
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "acl_types.h"

namespace {

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

int Calls(long n) {
  const auto start = std::chrono::steady_clock::now();
  long rejected = 0;
  for (long i = 0; i < n; ++i) rejected += aclopExecuteV2(nullptr, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr) != 0;
  const double s = Seconds(start);
  std::printf("calls %ld  %.1f ns/call  (rejected %ld)\n", n, s * 1e9 / static_cast<double>(n), rejected);
  return 0;
}

int Small(long n) {
  aclrtStream stream;
  aclrtCreateStream(&stream);
  const int64_t dims[1] = {64};
  void* dev[2];
  for (void*& d : dev) aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST);
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  aclDataBuffer* buf[2] = {aclCreateDataBuffer(dev[0], 256), aclCreateDataBuffer(dev[1], 256)};
  aclTensorDesc* descs[2] = {desc, desc};
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) aclopExecuteV2("Add", 2, descs, buf, 1, descs, buf, nullptr, stream);
  const double issue = Seconds(start);
  aclrtSynchronizeStream(stream);
  aclrtDestroyStream(stream);
  aclFinalize();
  std::printf("small x %ld  issue %.2f us/call  total %.2f us/call\n", n, issue * 1e6 / static_cast<double>(n),
              Seconds(start) * 1e6 / static_cast<double>(n));
  return 0;
}

int Big(long mb, long n) {
  aclrtStream stream;
  aclrtCreateStream(&stream);
  const size_t bytes = static_cast<size_t>(mb) << 20;
  const int64_t dims[1] = {static_cast<int64_t>(bytes / 4)};
  void* dev[3];
  for (void*& d : dev) aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  std::vector<float> ones(bytes / 4, 1.0f);
  aclrtMemcpy(dev[0], bytes, ones.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(dev[1], bytes, ones.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclTensorDesc* desc[3];
  aclDataBuffer* buf[3];
  for (int i = 0; i < 3; ++i) {
    desc[i] = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    buf[i] = aclCreateDataBuffer(dev[i], bytes);
  }
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) aclopExecuteV2("Add", 2, desc, buf, 1, desc + 2, buf + 2, nullptr, stream);
  aclrtSynchronizeStream(stream);
  aclrtDestroyStream(stream);
  aclFinalize();
  const double s = Seconds(start);
  const double tensor_mb = 3.0 * static_cast<double>(mb) * static_cast<double>(n);
  std::printf("big %ld MB x %ld ops  %.3f s  %.0f MB/s of op tensors\n", mb, n, s, tensor_mb / s);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  aclInit(nullptr);
  aclrtSetDevice(0);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "calls" && argc == 3) return Calls(std::atol(argv[2]));
  if (mode == "small" && argc == 3) return Small(std::atol(argv[2]));
  if (mode == "big" && argc == 4) return Big(std::atol(argv[2]), std::atol(argv[3]));
  std::fprintf(stderr, "usage: capture_bench calls N | small N | big MB N\n");
  return 2;
}
