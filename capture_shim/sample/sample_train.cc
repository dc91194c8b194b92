// sample_train: a deterministic 2-layer MLP trained with single ops (aclopExecuteV2) on two streams
// from two host threads — the program the capture shim's tests run under the fake ACL runtime.
//
//   sample_train [--steps N] [--nan-step S] [--golden DIR] [--out FILE] [--big MB] [--stress N]
//
// Thread t trains its own replica on stream t+1 (streams are created in that order). Per step:
// Cast(fp16 batch) → MatMul → Relu → MatMul → Softmax → Sub(labels) → Muls(1/B) → three MatMuls for the
// gradients → ReluGrad → two in-place Axpy SGD updates. --nan-step injects a NaN into thread 0's batch
// (also MSPROBE_SAMPLE_NAN_STEP). --golden writes every op's inputs (before it runs) and outputs as
// DIR/s{stream}_{task}.{input|output}.{slot}.raw, synchronising around each op. --out writes the final
// weights of both replicas. --big adds an Add over two MB-sized tensors per step on thread 0. --stress
// runs N small Adds per thread while the main thread forks children that call ACL on the null stream.
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "acl_types.h"
#include "sanitizer_fork_guard.h"

namespace {

struct Options {
  int steps = 5;
  int nan_step = -1;
  std::string golden;
  std::string out;
  int64_t big_mb = 0;
  int stress = 0;
};

constexpr int64_t kBatch = 8, kIn = 16, kHidden = 32, kClasses = 4;
constexpr float kLearningRate = 0.5f;

void Check(aclError e, const char* what) {
  if (e != ACL_SUCCESS) {
    std::fprintf(stderr, "sample_train: %s failed: %d\n", what, e);
    std::exit(1);
  }
}

struct Tensor {
  aclDataType dtype = ACL_FLOAT;
  std::vector<int64_t> dims;
  void* dev = nullptr;
  size_t Bytes() const {
    size_t n = dtype == ACL_FLOAT16 ? 2 : 4;
    for (int64_t d : dims) n *= static_cast<size_t>(d);
    return n;
  }
};

Tensor Alloc(std::vector<int64_t> dims, aclDataType dtype = ACL_FLOAT) {
  Tensor t{dtype, std::move(dims), nullptr};
  Check(aclrtMalloc(&t.dev, t.Bytes(), ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  return t;
}

// Deterministic pseudo-random floats in [-scale, scale).
class Lcg {
 public:
  explicit Lcg(uint64_t seed) : s_(seed * 6364136223846793005ull + 1442695040888963407ull) {}
  float Next(float scale) {
    s_ = s_ * 6364136223846793005ull + 1442695040888963407ull;
    return (static_cast<float>((s_ >> 40) & 0xffffff) / 16777216.0f * 2.0f - 1.0f) * scale;
  }

 private:
  uint64_t s_;
};

uint16_t ToHalf(float f) {  // exact for the values used (multiples of 1/1024 in [-1, 1])
  if (std::isnan(f)) return 0x7e00;
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  if ((x & 0x7fffffff) == 0) return sign;
  const int exp = static_cast<int>((x >> 23) & 0xff) - 127 + 15;
  return sign | static_cast<uint16_t>(exp << 10) | static_cast<uint16_t>((x >> 13) & 0x3ff);
}

void Upload(const Tensor& t, const void* host, aclrtStream stream) {
  Check(aclrtMemcpyAsync(t.dev, t.Bytes(), host, t.Bytes(), ACL_MEMCPY_HOST_TO_DEVICE, stream), "aclrtMemcpyAsync");
}

std::vector<char> Download(const Tensor& t) {
  std::vector<char> host(t.Bytes());
  Check(aclrtMemcpy(host.data(), host.size(), t.dev, host.size(), ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy");
  return host;
}

class Runner {
 public:
  Runner(aclrtStream stream, int stream_index, const Options& opt) : stream_(stream), index_(stream_index), opt_(opt) {}

  void Op(const char* type, const std::vector<const Tensor*>& in, const std::vector<const Tensor*>& out,
          aclopAttr* attr = nullptr) {
    const bool golden = !opt_.golden.empty();
    if (golden) {
      Check(aclrtSynchronizeStream(stream_), "aclrtSynchronizeStream");
      for (size_t i = 0; i < in.size(); ++i) Save(*in[i], "input", i);
    }
    std::vector<aclTensorDesc*> in_desc, out_desc;
    std::vector<aclDataBuffer*> in_buf, out_buf;
    for (const Tensor* t : in) {
      in_desc.push_back(aclCreateTensorDesc(t->dtype, static_cast<int>(t->dims.size()), t->dims.data(), ACL_FORMAT_ND));
      in_buf.push_back(aclCreateDataBuffer(t->dev, t->Bytes()));
    }
    for (const Tensor* t : out) {
      out_desc.push_back(aclCreateTensorDesc(t->dtype, static_cast<int>(t->dims.size()), t->dims.data(), ACL_FORMAT_ND));
      out_buf.push_back(aclCreateDataBuffer(t->dev, t->Bytes()));
    }
    Check(aclopExecuteV2(type, static_cast<int>(in.size()), in_desc.data(), in_buf.data(), static_cast<int>(out.size()),
                         out_desc.data(), out_buf.data(), attr, stream_),
          type);
    for (auto* d : in_desc) aclDestroyTensorDesc(d);
    for (auto* d : out_desc) aclDestroyTensorDesc(d);
    for (auto* b : in_buf) aclDestroyDataBuffer(b);
    for (auto* b : out_buf) aclDestroyDataBuffer(b);
    if (attr) aclopDestroyAttr(attr);
    if (golden) {
      Check(aclrtSynchronizeStream(stream_), "aclrtSynchronizeStream");
      for (size_t i = 0; i < out.size(); ++i) Save(*out[i], "output", i);
    }
    ++task_;
  }

 private:
  void Save(const Tensor& t, const char* io, size_t slot) {
    const auto bytes = Download(t);
    const std::string path = opt_.golden + "/s" + std::to_string(index_) + "_" + std::to_string(task_) + "." + io + "." +
                             std::to_string(slot) + ".raw";
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }

  aclrtStream stream_;
  int index_;
  const Options& opt_;
  uint64_t task_ = 0;
};

aclopAttr* FloatAttr(const char* name, float v) {
  aclopAttr* a = aclopCreateAttr();
  aclopSetAttrFloat(a, name, v);
  return a;
}

aclopAttr* BoolAttr(const char* name) {
  aclopAttr* a = aclopCreateAttr();
  aclopSetAttrBool(a, name, 1);
  return a;
}

// Trains replica `t` and returns its final weights (W1 then W2, raw float bytes).
std::vector<char> Train(int t, int32_t device, aclrtStream stream, const Options& opt) {
  Check(aclrtSetDevice(device), "aclrtSetDevice");
  Runner run(stream, t + 1, opt);
  Lcg rng(static_cast<uint64_t>(t + 1 + 100 * device));
  Tensor w1 = Alloc({kIn, kHidden}), w2 = Alloc({kHidden, kClasses}), y = Alloc({kBatch, kClasses});
  Tensor xh = Alloc({kBatch, kIn}, ACL_FLOAT16), x = Alloc({kBatch, kIn});
  std::vector<float> host_w1(kIn * kHidden), host_w2(kHidden * kClasses), host_y(kBatch * kClasses, 0.0f);
  for (float& v : host_w1) v = rng.Next(0.5f);
  for (float& v : host_w2) v = rng.Next(0.5f);
  Upload(w1, host_w1.data(), stream);
  Upload(w2, host_w2.data(), stream);
  std::vector<uint16_t> host_x(kBatch * kIn);
  Tensor big_a, big_b, big_c;
  if (t == 0 && opt.big_mb > 0) {
    const int64_t n = opt.big_mb * (1 << 20) / 4;
    big_a = Alloc({n}), big_b = Alloc({n}), big_c = Alloc({n});
    // Values that differ from one element to the next (sums stay exact), so a byte out of place shows.
    std::vector<float> host(static_cast<size_t>(n));
    for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i % 65521);
    Upload(big_a, host.data(), stream);
    Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
    for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i % 251) * 0.25f;
    Upload(big_b, host.data(), stream);
    Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
  }
  for (int step = 0; step < opt.steps; ++step) {
    for (int64_t b = 0; b < kBatch; ++b) {
      for (int64_t i = 0; i < kIn; ++i) host_x[b * kIn + i] = ToHalf(std::round(rng.Next(1.0f) * 1024) / 1024);
      for (int64_t c = 0; c < kClasses; ++c) host_y[b * kClasses + c] = (b + step) % kClasses == c ? 1.0f : 0.0f;
    }
    if (t == 0 && step == opt.nan_step) host_x[3] = ToHalf(NAN);
    Upload(xh, host_x.data(), stream);
    Upload(y, host_y.data(), stream);
    Tensor z1 = Alloc({kBatch, kHidden}), a1 = Alloc({kBatch, kHidden}), z2 = Alloc({kBatch, kClasses});
    Tensor p = Alloc({kBatch, kClasses}), dz2 = Alloc({kBatch, kClasses}), dw2 = Alloc({kHidden, kClasses});
    Tensor da1 = Alloc({kBatch, kHidden}), dz1 = Alloc({kBatch, kHidden}), dw1 = Alloc({kIn, kHidden});
    run.Op("Cast", {&xh}, {&x});
    run.Op("MatMul", {&x, &w1}, {&z1});
    run.Op("Relu", {&z1}, {&a1});
    run.Op("MatMul", {&a1, &w2}, {&z2});
    run.Op("Softmax", {&z2}, {&p});
    run.Op("Sub", {&p, &y}, {&dz2});
    run.Op("Muls", {&dz2}, {&dz2}, FloatAttr("value", 1.0f / kBatch));
    run.Op("MatMul", {&a1, &dz2}, {&dw2}, BoolAttr("transpose_x1"));
    run.Op("MatMul", {&dz2, &w2}, {&da1}, BoolAttr("transpose_x2"));
    run.Op("ReluGrad", {&da1, &z1}, {&dz1});
    run.Op("MatMul", {&x, &dz1}, {&dw1}, BoolAttr("transpose_x1"));
    run.Op("Axpy", {&w2, &dw2}, {&w2}, FloatAttr("alpha", -kLearningRate));
    run.Op("Axpy", {&w1, &dw1}, {&w1}, FloatAttr("alpha", -kLearningRate));
    if (big_a.dev) run.Op("Add", {&big_a, &big_b}, {&big_c});
    Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");  // host batch buffers are reused
    for (Tensor* tmp : {&z1, &a1, &z2, &p, &dz2, &dw2, &da1, &dz1, &dw1}) Check(aclrtFree(tmp->dev), "aclrtFree");
  }
  std::vector<char> weights = Download(w1);
  const auto second = Download(w2);
  weights.insert(weights.end(), second.begin(), second.end());
  for (Tensor* tmp : {&w1, &w2, &y, &xh, &x, &big_a, &big_b, &big_c}) {
    if (tmp->dev) Check(aclrtFree(tmp->dev), "aclrtFree");
  }
  return weights;
}

// N small in-place Adds on `stream`.
void Stress(int t, int32_t device, aclrtStream stream, int n, const Options& opt) {
  Check(aclrtSetDevice(device), "aclrtSetDevice");
  Runner run(stream, t + 1, opt);
  Tensor a = Alloc({64}), b = Alloc({64});
  std::vector<float> ones(64, 1.0f);
  Upload(a, ones.data(), stream);
  Upload(b, ones.data(), stream);
  for (int i = 0; i < n; ++i) run.Op("Add", {&a, &b}, {&a});
  Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
  const auto result = Download(a);
  float v;
  std::memcpy(&v, result.data(), 4);
  if (v != 1.0f + static_cast<float>(n)) {
    std::fprintf(stderr, "sample_train: stress result %g, expected %d\n", v, n + 1);
    std::exit(1);
  }
  aclrtFree(a.dev);
  aclrtFree(b.dev);
}

// A forked child calls ACL on the null stream (synchronous) and checks the result.
int ForkedChild() {
  alarm(20);  // a deadlock after fork must fail the test, not hang it
  Tensor a = Alloc({4}), b = Alloc({4});
  const float two[4] = {2, 2, 2, 2};
  Check(aclrtMemcpy(a.dev, 16, two, 16, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
  Check(aclrtMemcpy(b.dev, 16, two, 16, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
  Options none;
  Runner run(nullptr, 0, none);
  run.Op("Add", {&a, &b}, {&a});
  float out[4];
  Check(aclrtMemcpy(out, 16, a.dev, 16, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy");
  return out[0] == 4.0f ? 0 : 1;
}

Options Parse(int argc, char** argv) {
  Options o;
  if (const char* v = std::getenv("MSPROBE_SAMPLE_NAN_STEP")) o.nan_step = std::atoi(v);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "sample_train: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--steps") o.steps = std::stoi(value());
    else if (a == "--nan-step") o.nan_step = std::stoi(value());
    else if (a == "--golden") o.golden = value();
    else if (a == "--out") o.out = value();
    else if (a == "--big") o.big_mb = std::stoll(value());
    else if (a == "--stress") o.stress = std::stoi(value());
    else {
      std::fprintf(stderr, "usage: sample_train [--steps N] [--nan-step S] [--golden DIR] [--out FILE] [--big MB] [--stress N]\n");
      std::exit(2);
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  sample::InstallSanitizerForkGuard();  // first: its prepare handler must run after the runtime's and shim's
  const Options opt = Parse(argc, argv);
  const char* rank = std::getenv("RANK_ID");
  const int32_t device = rank ? std::atoi(rank) % 8 : 0;
  const aclError init = aclInit(nullptr);
  if (init != ACL_SUCCESS && init != ACL_ERROR_REPEAT_INITIALIZE) Check(init, "aclInit");
  Check(aclrtSetDevice(device), "aclrtSetDevice");
  aclrtStream streams[2];
  for (auto& s : streams) Check(aclrtCreateStream(&s), "aclrtCreateStream");

  int failures = 0;
  std::vector<char> weights[2];
  if (opt.stress > 0) {
    std::thread workers[2];
    for (int t = 0; t < 2; ++t) workers[t] = std::thread(Stress, t, device, streams[t], opt.stress, std::cref(opt));
    for (int k = 0; k < 20; ++k) {
      const pid_t pid = fork();
      if (pid == 0) _exit(ForkedChild());
      int status = 0;
      waitpid(pid, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failures;
      usleep(2000);
    }
    for (auto& w : workers) w.join();
  } else {
    std::thread workers[2];
    for (int t = 0; t < 2; ++t) {
      workers[t] = std::thread([&, t] { weights[t] = Train(t, device, streams[t], opt); });
    }
    for (auto& w : workers) w.join();
  }

  for (auto& s : streams) Check(aclrtDestroyStream(s), "aclrtDestroyStream");
  Check(aclrtResetDevice(device), "aclrtResetDevice");
  Check(aclFinalize(), "aclFinalize");

  if (opt.stress > 0) {
    std::printf("stress: %d forked children failed\n", failures);
    return failures == 0 ? 0 : 1;
  }
  uint64_t h = 14695981039346656037ull;
  for (const auto& w : weights) {
    for (char c : w) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  }
  std::printf("weights checksum %016llx\n", static_cast<unsigned long long>(h));
  if (!opt.out.empty()) {
    std::ofstream out(opt.out, std::ios::binary);
    for (const auto& w : weights) out.write(w.data(), static_cast<std::streamsize>(w.size()));
  }
  return 0;
}
