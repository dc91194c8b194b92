// Throughput of the float64 recompute (ops::CheckDumpCalls, docs/ops.md §5) on two msprobe L1 tensor
// dumps of at least SIZE_MIB each, written as .npy into DIR once (a stamp marks a complete dump) and
// kept for later runs; warm page cache, best of 3.
//   linear:      Functional.linear calls ([512, K] x [N, K]^T + bias, K x N in 1024x4096, 4096x1024,
//                2048x2048): float64 GFLOP/s of the GEMMs beside the same-run peak of Eigen's float64
//                GEMM built for this CPU (-march=native, GemmNative) and run the way libops runs it (one
//                single-threaded product per core at once: libops parallelises over calls with TBB and
//                Eigen has no OpenMP here). The instruction set libops picked is printed (MSPROBE_ISA
//                forces one, docs/ops.md §4).
//   wide linear: the same with K x N in 4096x4096, 2048x8192, 8192x2048: weights of 128 MiB in
//                float64, over the 64 MB oneTBB keeps by default (docs/ops.md §4).
//   elementwise: Tensor.__add__, Functional.gelu, Torch.exp on [1024, 4096] float32: GB/s of tensor
//                files beside loading the same files with LoadFp64Tensor alone (the floor of any check).
// Peak RSS is per phase (clear_refs resets it), next to the largest call's tensors in float64 x threads.
// Usage: recompute_bench [DIR (default /tmp/msprobe_bench_recompute)] [SIZE_MIB (1024)] [THREADS]
#include <fcntl.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "bench_main.h"
#include "msprobe/dump/formats/npy_writer.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/ops/check/dump_check.h"
#include "msprobe/ops/reference/gemm_isa.h"
#include "msprobe/ops/tensor/tensor_loader.h"

namespace msprobe {
namespace ops::internal {
// libops's gemm_kernel.cc built with -march=native (bench/CMakeLists.txt).
void GemmNative(const double* a, const double* b, double* c, int64_t m, int64_t k, int64_t n, bool b_transposed);
}  // namespace ops::internal
namespace {

namespace fs = std::filesystem;
using RowMatrixF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr int64_t kRows = 512;                                              // B of every linear
// A linear dump's (K, N) of call i, cycled: the three of a set have the same FLOPs.
struct LinearSet {
  const char* name;
  const char* dir;
  int64_t shapes[3][2];
};
constexpr LinearSet kLinear{"linear", "linear", {{1024, 4096}, {4096, 1024}, {2048, 2048}}};
constexpr LinearSet kWideLinear{"wide linear", "linear_wide", {{4096, 4096}, {2048, 8192}, {8192, 2048}}};
constexpr int64_t kElemShape[2] = {1024, 4096};                             // 16 MiB float32

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Returns freed heap to the system and resets the peak RSS to the current RSS (Linux clear_refs "5"),
// so getrusage gives the next phase's own peak.
void ResetPeakRss() {
  malloc_trim(0);
  std::ofstream("/proc/self/clear_refs") << "5";
}

uint64_t RssMiB() {
  uint64_t pages = 0, resident = 0;
  std::ifstream("/proc/self/statm") >> pages >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) >> 20;
}

// User + system CPU seconds of the process so far: beside wall time, it shows whether other processes
// took cores away from a run (the machine may be shared).
double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

uint64_t PeakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) / 1024;
}

std::vector<float> Normal(uint64_t seed, int64_t n, float scale) {
  bench::NormalValues gen(seed);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = gen.Next() * scale;
  return v;
}

Status Save(const fs::path& dir, const std::string& name, const std::vector<int64_t>& shape, const std::vector<float>& v) {
  return WriteNpy((dir / name).string(), DType::kF32, shape, std::as_bytes(std::span(v)));
}

std::string TensorJson(const std::string& name, const std::vector<int64_t>& shape) {
  return fmt::format(R"({{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [{}], "requires_grad": false, )"
                     R"("data_name": "{}"}})",
                     fmt::join(shape, ", "), name);
}

// One dump.json entry: inputs and outputs as (file stem suffix, shape); files are "{key}.{suffix}.npy".
std::string EntryJson(const std::string& key, const std::vector<std::pair<std::string, std::vector<int64_t>>>& ins,
                      const std::vector<std::pair<std::string, std::vector<int64_t>>>& outs) {
  std::vector<std::string> in, out;
  for (const auto& [s, shape] : ins) in.push_back(TensorJson(fmt::format("{}.{}.npy", key, s), shape));
  for (const auto& [s, shape] : outs) out.push_back(TensorJson(fmt::format("{}.{}.npy", key, s), shape));
  return fmt::format(R"(  "{}": {{"input_args": [{}], "input_kwargs": {{}}, "output": [{}]}})", key,
                     fmt::join(in, ", "), fmt::join(out, ", "));
}

// Writes `calls` calls with write(i, tensor_dir) in parallel (they dominate: GEMMs and 10+ MB files),
// then dump.json from entry(i), then the stamp. An existing stamp naming the same calls skips it all.
Status WriteDump(const fs::path& rank_dir, uint64_t calls, const std::function<Status(uint64_t, const fs::path&)>& write,
                 const std::function<std::string(uint64_t)>& entry) {
  const fs::path stamp = rank_dir / "complete", tensors = rank_dir / "dump_tensor_data";
  const std::string stamp_text = fmt::format("{} calls\n", calls);
  if (std::ifstream in(stamp); in && std::string(std::istreambuf_iterator<char>(in), {}) == stamp_text) return Status::Ok();
  fs::remove_all(rank_dir);
  fs::create_directories(tensors);
  std::vector<Status> status(calls, Status::Ok());
  tbb::parallel_for(uint64_t{0}, calls, [&](uint64_t i) { status[i] = write(i, tensors); });
  for (const Status& s : status) MSP_RETURN_IF_ERROR(s);
  std::vector<std::string> entries;
  for (uint64_t i = 0; i < calls; ++i) entries.push_back(entry(i));
  MSP_RETURN_IF_ERROR(WriteFileAtomically(
      (rank_dir / "dump.json").string(),
      fmt::format("{{\n \"task\": \"tensor\",\n \"level\": \"L1\",\n \"framework\": \"pytorch\",\n "
                  "\"dump_data_dir\": null,\n \"data\": {{\n{}\n }}\n}}\n",
                  fmt::join(entries, ",\n"))));
  return WriteFileAtomically(stamp.string(), stamp_text);
}

// Linear call i: x [B, K] ~ N(0, 1), w [N, K] ~ N(0, 1/K), b [N]; y = x w^T + b by Eigen in float32
// (not exact, but well within the float32 tolerance of a K-term dot product).
Status WriteLinear(const LinearSet& set, uint64_t i, const fs::path& dir) {
  const int64_t k = set.shapes[i % 3][0], n = set.shapes[i % 3][1];
  const std::string key = fmt::format("Functional.linear.{}.forward", i);
  const std::vector<float> x = Normal(3 * i + 1, kRows * k, 1), w = Normal(3 * i + 2, n * k, 1 / std::sqrt(float(k)));
  const std::vector<float> b = Normal(3 * i + 3, n, 0.1f);
  std::vector<float> y(static_cast<size_t>(kRows * n));
  Eigen::Map<RowMatrixF> Y(y.data(), kRows, n);
  Eigen::Map<const RowMatrixF> X(x.data(), kRows, k), W(w.data(), n, k);
  Y.noalias() = X * W.transpose();
  Y.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(b.data(), n);
  MSP_RETURN_IF_ERROR(Save(dir, key + ".input.0.npy", {kRows, k}, x));
  MSP_RETURN_IF_ERROR(Save(dir, key + ".input.1.npy", {n, k}, w));
  MSP_RETURN_IF_ERROR(Save(dir, key + ".input.2.npy", {n}, b));
  return Save(dir, key + ".output.0.npy", {kRows, n}, y);
}

std::string LinearEntry(const LinearSet& set, uint64_t i) {
  const int64_t k = set.shapes[i % 3][0], n = set.shapes[i % 3][1];
  return EntryJson(fmt::format("Functional.linear.{}.forward", i),
                   {{"input.0", {kRows, k}}, {"input.1", {n, k}}, {"input.2", {n}}}, {{"output.0", {kRows, n}}});
}

// Elementwise call i cycles through a + b, gelu(a), exp(a) on its own inputs; outputs are computed in
// double and rounded once, as a correctly rounded kernel would store them.
const char* const kElemApis[] = {"Tensor.__add__", "Functional.gelu", "Torch.exp"};

Status WriteElementwise(uint64_t i, const fs::path& dir) {
  const std::vector<int64_t> shape(std::begin(kElemShape), std::end(kElemShape));
  const std::string key = fmt::format("{}.{}.forward", kElemApis[i % 3], i / 3);
  const std::vector<float> a = Normal(2 * i + 1, kElemShape[0] * kElemShape[1], 1);
  std::vector<float> y(a.size());
  if (i % 3 == 0) {
    const std::vector<float> b = Normal(2 * i + 2, kElemShape[0] * kElemShape[1], 1);
    for (size_t j = 0; j < y.size(); ++j) y[j] = a[j] + b[j];
    MSP_RETURN_IF_ERROR(Save(dir, key + ".input.1.npy", shape, b));
  } else if (i % 3 == 1) {
    for (size_t j = 0; j < y.size(); ++j) y[j] = static_cast<float>(0.5 * a[j] * (1 + std::erf(a[j] * M_SQRT1_2)));
  } else {
    for (size_t j = 0; j < y.size(); ++j) y[j] = static_cast<float>(std::exp(static_cast<double>(a[j])));
  }
  MSP_RETURN_IF_ERROR(Save(dir, key + ".input.0.npy", shape, a));
  return Save(dir, key + ".output.0.npy", shape, y);
}

std::string ElementwiseEntry(uint64_t i) {
  const std::vector<int64_t> shape(std::begin(kElemShape), std::end(kElemShape));
  std::vector<std::pair<std::string, std::vector<int64_t>>> ins = {{"input.0", shape}};
  if (i % 3 == 0) ins.push_back({"input.1", shape});
  return EntryJson(fmt::format("{}.{}.forward", kElemApis[i % 3], i / 3), ins, {{"output.0", shape}});
}

struct Timed {
  double seconds = 1e30;  // best of 3
  double cpu_seconds = 0;  // of that run
  ops::DumpCheck result;
  uint64_t rss_mib = 0;
  uint64_t rss_before_mib = 0;  // what the peak was reset to
};

// One untimed run warms the page cache (and the allocator), then the best of 3.
Result<Timed> TimeCheck(const std::string& dump_json) {
  Timed t;
  ResetPeakRss();
  t.rss_before_mib = RssMiB();
  for (int run = 0; run < 4; ++run) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu = CpuSeconds();
    MSP_ASSIGN_OR_RETURN(t.result, ops::CheckDumpCalls(dump_json));
    if (const double s = Seconds(start); run > 0 && s < t.seconds) t.seconds = s, t.cpu_seconds = CpuSeconds() - cpu;
  }
  t.rss_mib = PeakRssMiB();
  return t;
}

std::string Verdicts(const ops::DumpCheck& check) {
  uint64_t count[ops::kSelfVerdicts] = {};
  for (const ops::CallCheck& c : check.calls) ++count[static_cast<int>(c.check.verdict)];
  std::string text = fmt::format("{} ok, {} exceeds, {} unsupported, {} unreadable", count[0], count[1], count[2], count[3]);
  for (const ops::CallCheck& c : check.calls) {
    if (c.check.verdict != ops::SelfVerdict::kOk) {
      return text + fmt::format(" (first: {}: {} max_rel {})", c.key, c.check.reason, c.check.error.max_rel);
    }
  }
  return text;
}

// The peak the linear check can reach: `threads` single-threaded float64 products of the dump's
// (2048, 2048) shape at once, the way TBB runs one call per core, by Eigen built for this CPU. Returns
// GFLOP per wall second and per CPU second.
std::pair<double, double> PeakGemmGflops(int threads, int reps) {
  const int64_t k = 2048, n = 2048;
  // Filled before the clock starts (Eigen's Random() calls std::rand, which takes a lock); the
  // product's speed does not depend on the values.
  const RowMatrixD x = RowMatrixD::Constant(kRows, k, 0.5), w = RowMatrixD::Constant(n, k, 0.25);
  std::vector<RowMatrixD> y(threads, RowMatrixD(kRows, n));
  std::vector<std::thread> workers;
  const auto start = std::chrono::steady_clock::now();
  const double cpu = CpuSeconds();
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      for (int r = 0; r < reps; ++r) ops::internal::GemmNative(x.data(), w.data(), y[t].data(), kRows, k, n, true);
    });
  }
  for (std::thread& worker : workers) worker.join();
  if (y[0](0, 0) != 0.125 * k) std::abort();  // keeps the products observable
  const double gflop = 2.0 * kRows * k * n * threads * reps / 1e9;
  return {gflop / Seconds(start), gflop / (CpuSeconds() - cpu)};
}

std::vector<std::string> Files(const fs::path& dir, uint64_t* bytes) {
  std::vector<std::string> files;
  *bytes = 0;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path().string()), *bytes += e.file_size();
  return files;
}

// The loader alone over `files`, in parallel as the check runs: decoding to float64 with nothing after.
Result<double> TimeLoads(const std::vector<std::string>& files) {
  double best = 1e30;
  for (int run = 0; run < 3; ++run) {
    std::vector<Status> status(files.size(), Status::Ok());
    const auto start = std::chrono::steady_clock::now();
    tbb::parallel_for(size_t{0}, files.size(), [&](size_t i) { status[i] = ops::LoadFp64Tensor(files[i]).status(); });
    best = std::min(best, Seconds(start));
    for (const Status& s : status) MSP_RETURN_IF_ERROR(s);
  }
  return best;
}

double TimeReads(const std::vector<std::string>& files) {
  std::vector<char> buf(8 << 20);
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& f : files) {
    const int fd = ::open(f.c_str(), O_RDONLY);
    while (::read(fd, buf.data(), buf.size()) > 0) {
    }
    ::close(fd);
  }
  return Seconds(start);
}

// Linear: GEMM-bound, so the figure is FLOP/s against what Eigen's product reaches on all cores,
// measured right after the check.
Status RunLinear(const fs::path& root, const LinearSet& set, uint64_t mib, int threads) {
  uint64_t calls = 0;
  double call_values = 0;  // the largest call's x, w, b, the reference y and the loaded dumped y
  for (uint64_t bytes = 0; bytes < (mib << 20); ++calls) {
    const int64_t k = set.shapes[calls % 3][0], n = set.shapes[calls % 3][1];
    bytes += 4 * (kRows * k + n * k + n + kRows * n);
    call_values = std::max(call_values, double(kRows * k + n * k + n + 2 * kRows * n));
  }
  const fs::path dir = root / set.dir / "step0/rank0";
  MSP_RETURN_IF_ERROR(WriteDump(
      dir, calls, [&](uint64_t i, const fs::path& d) { return WriteLinear(set, i, d); },
      [&](uint64_t i) { return LinearEntry(set, i); }));
  uint64_t bytes = 0;
  const std::vector<std::string> files = Files(dir / "dump_tensor_data", &bytes);
  TimeReads(files);  // warms the page cache
  MSP_ASSIGN_OR_RETURN(Timed lin, TimeCheck((dir / "dump.json").string()));
  double flops = 0;
  for (uint64_t i = 0; i < calls; ++i) flops += 2.0 * kRows * set.shapes[i % 3][0] * set.shapes[i % 3][1];
  MSP_ASSIGN_OR_RETURN(double load_s, TimeLoads(files));
  std::pair<double, double> peak;  // per wall and per CPU second, best of 3 as the check's time
  for (int run = 0; run < 3; ++run) peak = std::max(peak, PeakGemmGflops(threads, 2));
  const double gflops = flops / lin.seconds / 1e9, call_mib = 8 * call_values / (1 << 20);
  fmt::print("{}: {} calls, {:.2f} GiB of .npy, {:.0f} GFLOP (float64); {}\n", set.name, calls,
             bytes / double(1 << 30), flops / 1e9, Verdicts(lin.result));
  fmt::print("  CheckDumpCalls  {:.2f} s ({:.2f} CPU s)  {:.2f} GFLOP/s  peak RSS {} MiB from {} MiB "
             "(largest call {:.0f} MiB float64 x {} threads = {:.0f} MiB)\n",
             lin.seconds, lin.cpu_seconds, gflops, lin.rss_mib, lin.rss_before_mib, call_mib, threads,
             call_mib * threads);
  fmt::print("  Eigen GEMM      {:.2f} GFLOP/s (peak: {} concurrent single-threaded products, -march=native)  ratio {:.2f}\n",
             peak.first, threads, gflops / peak.first);
  // Per CPU second: insensitive to other processes taking a core away during one of the two.
  fmt::print("  per CPU second  check {:.2f}, Eigen GEMM {:.2f} GFLOP  ratio {:.2f}\n", flops / lin.cpu_seconds / 1e9,
             peak.second, flops / lin.cpu_seconds / 1e9 / peak.second);
  fmt::print("  loads alone     {:.2f} s ({:.0f}% of the check)\n", load_s, 100 * load_s / lin.seconds);
  return Status::Ok();
}

Status Run(const fs::path& root, uint64_t mib, int threads) {
  fmt::print("Eigen threads per product: {}\n", Eigen::nbThreads());
  for (const LinearSet& set : {kLinear, kWideLinear}) MSP_RETURN_IF_ERROR(RunLinear(root, set, mib, threads));

  // Elementwise: bandwidth-bound, so the figure is GB/s of tensor files against the loader alone.
  const uint64_t elem_bytes = 4 * kElemShape[0] * kElemShape[1];
  const uint64_t elem_calls = 3 * (((mib << 20) + 7 * elem_bytes - 1) / (7 * elem_bytes));  // 7 files per 3 calls
  const fs::path elem = root / "elementwise/step0/rank0";
  MSP_RETURN_IF_ERROR(WriteDump(elem, elem_calls, WriteElementwise, ElementwiseEntry));
  uint64_t elem_bytes_total = 0;
  const std::vector<std::string> elem_files = Files(elem / "dump_tensor_data", &elem_bytes_total);
  TimeReads(elem_files);  // warms the page cache
  const double read_s = TimeReads(elem_files);
  MSP_ASSIGN_OR_RETURN(Timed el, TimeCheck((elem / "dump.json").string()));
  ResetPeakRss();
  const uint64_t load_rss_before = RssMiB();
  MSP_ASSIGN_OR_RETURN(double load_s, TimeLoads(elem_files));
  const uint64_t load_rss = PeakRssMiB();
  const double gb = static_cast<double>(elem_bytes_total) / 1e9;
  // Largest call, add: a, b, the reference and the dumped y.
  const double elem_call_mib = 8.0 * 4 * kElemShape[0] * kElemShape[1] / (1 << 20);
  fmt::print("elementwise: {} calls, {:.2f} GiB of .npy; {}\n", elem_calls, elem_bytes_total / double(1 << 30),
             Verdicts(el.result));
  fmt::print("  CheckDumpCalls  {:.2f} s ({:.2f} CPU s)  {:.2f} GB/s  peak RSS {} MiB from {} MiB "
             "(largest call {:.0f} MiB float64 x {} threads = {:.0f} MiB)\n",
             el.seconds, el.cpu_seconds, gb / el.seconds, el.rss_mib, el.rss_before_mib, elem_call_mib, threads, elem_call_mib * threads);
  fmt::print("  LoadFp64Tensor  {:.2f} s  {:.2f} GB/s (baseline, peak RSS {} MiB from {} MiB)  ratio {:.2f}\n", load_s,
             gb / load_s, load_rss, load_rss_before, load_s / el.seconds);
  fmt::print("  read()          {:.2f} s  {:.2f} GB/s (one thread)\n", read_s, gb / read_s);
  return Status::Ok();
}

}  // namespace
}  // namespace msprobe

int main(int argc, char** argv) {
  using namespace msprobe;
  const fs::path root = argc > 1 ? argv[1] : "/tmp/msprobe_bench_recompute";
  const uint64_t mib = argc > 2 ? std::stoull(argv[2]) : 1024;
  const int threads = argc > 3 ? std::stoi(argv[3]) : tbb::info::default_concurrency();
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<size_t>(threads));
  fmt::print("threads: {}\n{}\n", threads, ops::GemmIsaLine());
  const Status status = Run(root, mib, threads);
  if (!status.ok()) {
    fmt::print(stderr, "recompute_bench: error: {}\n", status.ToString());
    return 1;
  }
  return 0;
}
