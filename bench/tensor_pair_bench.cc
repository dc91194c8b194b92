// Tensor compare of a real msprobe pair against a one-pass limit probe, in one run, warm page cache,
// each the median of 3 (docs/compare.md §6.3):
//  (a) CompareTensors over every .pt the two dump_tensor_data directories share (a tensor-mode row
//      each), rows on tbb::parallel_for as the compare app runs them: GB/s of target + golden bytes,
//      with the user and system time and the page faults of the median run;
//  (b) ProbeAdd (limit_probe.cc, -march=native) over two SIZE_MIB float32 files written beside the
//      pair, both mapped at once, 1 MiB runs on tbb::parallel_reduce: GB/s of both files' bytes;
//  then (a) / (b), the goal being at least 0.60, and the same ratio per CPU second (user + sys), which
//  other processes on the machine do not stretch.
// The pair comes from bench/gen_tensor_pair.py. Usage: tensor_pair_bench PAIR_DIR [SIZE_MIB] [THREADS]
#include "bench_main.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "limit_probe.h"
#include "msprobe/compare/metrics/tensor_compare.h"
#include "msprobe/dump/io/atomic_file.h"

namespace msprobe {
namespace {

namespace fs = std::filesystem;
using compare::CompareTensors;
using compare::TensorCompareInput;

constexpr int kRepeats = 3;

// One timed run: wall seconds, CPU seconds of the process, minor and major faults.
struct Sample {
  double wall = 0, user = 0, sys = 0;
  long faults = 0;
};

double Seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; }

// The median of kRepeats runs of `body` by wall time.
template <class Body>
Result<Sample> Median(Body body) {
  std::vector<Sample> samples;
  for (int r = 0; r < kRepeats; ++r) {
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    const auto start = std::chrono::steady_clock::now();
    MSP_RETURN_IF_ERROR(body());
    Sample s;
    s.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    getrusage(RUSAGE_SELF, &after);
    s.user = Seconds(after.ru_utime) - Seconds(before.ru_utime);
    s.sys = Seconds(after.ru_stime) - Seconds(before.ru_stime);
    s.faults = (after.ru_minflt - before.ru_minflt) + (after.ru_majflt - before.ru_majflt);
    samples.push_back(s);
  }
  std::sort(samples.begin(), samples.end(), [](const Sample& x, const Sample& y) { return x.wall < y.wall; });
  return samples[kRepeats / 2];
}

// The dump_tensor_data directory of the one dump under `side` (gen_tensor_pair.py's step0/proc<pid>).
Result<fs::path> TensorDir(const fs::path& side) {
  for (const auto& entry : fs::recursive_directory_iterator(side)) {
    if (entry.is_directory() && entry.path().filename() == "dump_tensor_data") return entry.path();
  }
  return Status::NotFound(side.string(), "no dump_tensor_data directory; write the pair with bench/gen_tensor_pair.py");
}

struct Pair {
  std::string target_dir, golden_dir;
  std::vector<std::string> names;  // present on both sides
  uint64_t bytes = 0;
};

Result<Pair> FindPair(const fs::path& dir) {
  MSP_ASSIGN_OR_RETURN(fs::path target, TensorDir(dir / "target"));
  MSP_ASSIGN_OR_RETURN(fs::path golden, TensorDir(dir / "golden"));
  Pair pair{target.string(), golden.string(), {}, 0};
  for (const auto& entry : fs::directory_iterator(target)) {
    const fs::path other = golden / entry.path().filename();
    if (entry.path().extension() != ".pt" || !fs::exists(other)) continue;
    pair.names.push_back(entry.path().filename().string());
    pair.bytes += entry.file_size() + fs::file_size(other);
    bench::WarmFile(entry.path().string());
    bench::WarmFile(other.string());
  }
  if (pair.names.empty()) return Status::NotFound(target.string(), "no .pt file on both sides");
  std::sort(pair.names.begin(), pair.names.end());
  return pair;
}

Status CompareAll(const Pair& pair) {
  std::atomic<int> unreadable_rows{0};
  tbb::parallel_for(size_t{0}, pair.names.size(), [&](size_t i) {
    const TensorCompareInput input{pair.names[i], pair.names[i], true, pair.target_dir, pair.golden_dir};
    Status unreadable;
    CompareTensors(input, {}, &unreadable);
    if (!unreadable.ok()) ++unreadable_rows;
  });
  if (unreadable_rows > 0)
    return Status::Internal(pair.target_dir, fmt::format("{} rows could not be read", unreadable_rows.load()));
  return Status::Ok();
}

// A float32 file of `mib` MiB of deterministic values, kept for later runs.
Result<std::string> ProbeFile(const fs::path& dir, const std::string& name, uint64_t mib, uint64_t seed) {
  const fs::path path = dir / fmt::format("{}_{}mib.f32", name, mib);
  if (fs::exists(path) && fs::file_size(path) == (mib << 20)) return path.string();
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path.string()));
  bench::NormalValues values(seed);
  std::vector<float> chunk(1 << 18);
  for (uint64_t done = 0; done < mib; ++done) {
    for (float& v : chunk) v = values.Next();
    MSP_RETURN_IF_ERROR(file.Write(Bytes(reinterpret_cast<const std::byte*>(chunk.data()), chunk.size() * 4)));
  }
  MSP_RETURN_IF_ERROR(file.Commit());
  return path.string();
}

// Both files mapped whole (no populate: faulting them in is part of the read), one pass.
Status Probe(const std::string& a_path, const std::string& b_path, uint64_t bytes, bench::ProbeSums* out) {
  const int a_fd = ::open(a_path.c_str(), O_RDONLY | O_CLOEXEC), b_fd = ::open(b_path.c_str(), O_RDONLY | O_CLOEXEC);
  void* a = a_fd < 0 ? MAP_FAILED : mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE, a_fd, 0);
  void* b = b_fd < 0 ? MAP_FAILED : mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE, b_fd, 0);
  if (a_fd >= 0) ::close(a_fd);
  if (b_fd >= 0) ::close(b_fd);
  if (a == MAP_FAILED || b == MAP_FAILED) {
    if (a != MAP_FAILED) munmap(a, bytes);
    if (b != MAP_FAILED) munmap(b, bytes);
    return Status::IOError(a_path, "cannot map the probe files");
  }
  const auto* af = static_cast<const float*>(a);
  const auto* bf = static_cast<const float*>(b);
  constexpr size_t kRun = (1 << 20) / sizeof(float);
  const size_t n = bytes / sizeof(float);
  *out = tbb::parallel_reduce(
      tbb::blocked_range<size_t>(0, (n + kRun - 1) / kRun), bench::ProbeSums{},
      [&](const tbb::blocked_range<size_t>& runs, bench::ProbeSums sums) {
        for (size_t r = runs.begin(); r != runs.end(); ++r)
          bench::ProbeAdd(af + r * kRun, bf + r * kRun, std::min(kRun, n - r * kRun), &sums);
        return sums;
      },
      [](bench::ProbeSums x, const bench::ProbeSums& y) {
        x.dot += y.dot;
        x.a_sq += y.a_sq;
        x.b_sq += y.b_sq;
        x.abs_sum += y.abs_sum;
        x.abs_max = std::max(x.abs_max, y.abs_max);
        return x;
      });
  munmap(a, bytes);
  munmap(b, bytes);
  return Status::Ok();
}

void Print(const char* label, uint64_t bytes, const Sample& s) {
  fmt::print("{:<32} {:6.3f} GB in {:6.3f} s: {:6.2f} GB/s (user {:.3f} s, sys {:.3f} s, {} page faults)\n", label,
             static_cast<double>(bytes) / 1e9, s.wall, static_cast<double>(bytes) / 1e9 / s.wall, s.user, s.sys,
             s.faults);
}

Status Run(const std::string& dir, uint64_t mib) {
  MSP_ASSIGN_OR_RETURN(Pair pair, FindPair(dir));
  MSP_ASSIGN_OR_RETURN(Sample compare, Median([&] { return CompareAll(pair); }));
  MSP_ASSIGN_OR_RETURN(std::string a, ProbeFile(dir, "probe_a", mib, 1));
  MSP_ASSIGN_OR_RETURN(std::string b, ProbeFile(dir, "probe_b", mib, 2));
  bench::WarmFile(a);
  bench::WarmFile(b);
  bench::ProbeSums sums;
  MSP_ASSIGN_OR_RETURN(Sample probe, Median([&] { return Probe(a, b, mib << 20, &sums); }));
  fmt::print("(a) CompareTensors, {} .pt pairs\n", pair.names.size());
  Print("    target + golden", pair.bytes, compare);
  fmt::print("(b) limit probe, -march=native (dot {:.6g}, max |a - b| {:.6g})\n", sums.dot, sums.abs_max);
  Print("    two float32 files", 2 * (mib << 20), probe);
  const double compare_gb = static_cast<double>(pair.bytes) / 1e9, probe_gb = static_cast<double>(2 * (mib << 20)) / 1e9;
  fmt::print("ratio (a) / (b): {:.2f} (goal >= 0.60)\n", (compare_gb / compare.wall) / (probe_gb / probe.wall));
  // Other processes on the machine stretch wall times; CPU time is what each pass itself costs.
  const double compare_cpu = compare_gb / (compare.user + compare.sys), probe_cpu = probe_gb / (probe.user + probe.sys);
  fmt::print("per CPU second: {:.2f} vs {:.2f} GB, ratio {:.2f}\n", compare_cpu, probe_cpu, compare_cpu / probe_cpu);
  return Status::Ok();
}

}  // namespace
}  // namespace msprobe

int main(int argc, char** argv) {
  return msprobe::bench::BenchMain(argc, argv, "tensor_pair_bench", "/tmp/msprobe_tensor_pair", 1024,
                                   [](const std::string& dir, uint64_t mib) { return msprobe::Run(dir, mib); });
}
