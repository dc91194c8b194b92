// Throughput of the kernel-dump compare (CompareKernelDirs, NPY mode) on two npy kernel dump trees of
// SIZE_MIB each (default 1024 MiB: 256 float32 tensors of 4 MiB per side, MindSpore O0/O1 layout),
// warm page cache. Prints GB/s of target + golden bytes and, as the baseline, a plain read() of the
// same files. The trees are written deterministically into DIR and kept for later runs.
// Usage: kernel_compare_bench [DIR (default /tmp/msprobe_bench_kernel)] [SIZE_MIB] [THREADS]
#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "msprobe/compare/jobs/kernel_compare.h"
#include "msprobe/dump/io/atomic_file.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;
constexpr uint64_t kTensorBytes = uint64_t{4} << 20;

std::string NpyHeader(uint64_t elements) {
  std::string dict = fmt::format("{{'descr': '<f4', 'fortran_order': False, 'shape': ({},), }}", elements);
  const size_t total = (10 + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - 10 - dict.size() - 1, ' ');
  dict += '\n';
  std::string h = "\x93NUMPY\x01";
  h += '\0';
  h += static_cast<char>(dict.size() & 0xff);
  h += static_cast<char>(dict.size() >> 8);
  return h + dict;
}

// Side 1 is side 0 times (1 + 1e-3·noise): every metric has work to do.
void WriteTree(const fs::path& dir, int side, uint64_t tensors) {
  fs::create_directories(dir);
  const uint64_t n = kTensorBytes / 4;
  std::vector<float> data(n);
  for (uint64_t t = 0; t < tensors; ++t) {
    const std::string name = fmt::format("MatMul.Default_MatMul-op{}.0.0.{}.output.0.DefaultFormat.float32.npy", t, 1000 + t);
    if (fs::exists(dir / name)) continue;
    uint64_t state = 0x9E3779B97F4A7C15ull * (t + 1);
    for (uint64_t i = 0; i < n; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const float v = static_cast<float>(static_cast<int32_t>(state >> 32)) * 4.656613e-10f;
      data[i] = side == 0 ? v : v * (1.0f + 1e-3f * static_cast<float>((state >> 20) & 0xff) / 255.0f);
    }
    std::string bytes = NpyHeader(n);
    bytes.append(reinterpret_cast<const char*>(data.data()), kTensorBytes);
    if (!WriteFileAtomically((dir / name).string(), bytes).ok()) std::abort();
  }
}

double ReadAll(const std::vector<std::string>& files) {
  std::vector<char> buf(8 << 20);
  uint64_t total = 0;
  for (const std::string& f : files) {
    const int fd = ::open(f.c_str(), O_RDONLY);
    for (ssize_t got; (got = ::read(fd, buf.data(), buf.size())) > 0;) total += static_cast<uint64_t>(got);
    ::close(fd);
  }
  return static_cast<double>(total);
}

}  // namespace
}  // namespace msprobe

int main(int argc, char** argv) {
  using namespace msprobe;
  const fs::path root = argc > 1 ? argv[1] : "/tmp/msprobe_bench_kernel";
  const uint64_t mib = argc > 2 ? std::stoull(argv[2]) : 1024;
  const int threads = argc > 3 ? std::stoi(argv[3]) : tbb::info::default_concurrency();
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<size_t>(threads));
  const uint64_t tensors = (mib << 20) / kTensorBytes;
  const fs::path target = root / "npu/rank_0/Net/0/0", golden = root / "bench/rank_0/Net/0/0";
  WriteTree(target, 0, tensors);
  WriteTree(golden, 1, tensors);
  std::vector<std::string> files;
  for (const fs::path& dir : {target, golden}) {
    for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path().string());
  }
  const double bytes = ReadAll(files);  // warms the page cache
  auto seconds = [](auto start) { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  auto t0 = std::chrono::steady_clock::now();
  ReadAll(files);
  const double read_s = seconds(t0);

  auto n = FindKernelDumpDirs((root / "npu").string());
  auto b = FindKernelDumpDirs((root / "bench").string());
  if (!n.ok() || !b.ok()) std::abort();
  double best = 1e30;
  for (int run = 0; run < 3; ++run) {
    t0 = std::chrono::steady_clock::now();
    Result<compare::ResultTable> table = compare::CompareKernelDirs(*n, *b);
    best = std::min(best, seconds(t0));
    if (!table.ok() || table->rows.size() != tensors) std::abort();
  }
  fmt::print("kernel compare: {} pairs, {:.2f} GiB target+golden, {} threads\n", tensors, bytes / (1 << 30), threads);
  fmt::print("  compare   {:.3f} s  {:.2f} GB/s\n", best, bytes / best / 1e9);
  fmt::print("  read()    {:.3f} s  {:.2f} GB/s (baseline)  ratio {:.2f}\n", read_s, bytes / read_s / 1e9, read_s / best);
  return 0;
}
