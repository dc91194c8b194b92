// Throughput of ComputeStats on a 1 GiB float32 .npy and a 1 GiB bfloat16 tensor (a .npy of uint16
// words read as kBF16), warm page cache, against a plain sequential read() of the same file timed in
// the same run. Usage: stats_bench [DIR (default /tmp/msprobe_bench)] [SIZE_MIB (default 1024)] [THREADS]
#include "bench_main.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/tensor/tensor_source.h"
#include "msprobe/dump/tensor/tensor_stats.h"

namespace msprobe {
namespace {

constexpr uint64_t kHeaderBytes = 128;  // np.save's header for a 1-D array: 10 bytes + dict, padded
constexpr int kRepeats = 5;

// A version 1.0 .npy header padded with spaces to kHeaderBytes, ending in '\n'.
std::string NpyHeader(const char* descr, uint64_t n) {
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({},), }}", descr, n);
  dict.resize(kHeaderBytes - 10 - 1, ' ');
  dict += '\n';
  std::string header("\x93NUMPY\x01\x00", 8);
  header += static_cast<char>(dict.size() & 0xff);
  header += static_cast<char>(dict.size() >> 8);
  return header + dict;
}

// Deterministic values: roughly N(0, 1), every 4099th a zero.
class Values {
 public:
  float Next() { return ++index_ % 4099 == 0 ? 0.0f : normal_.Next(); }

 private:
  bench::NormalValues normal_{0x9e3779b97f4a7c15ull};
  uint64_t index_ = 0;
};

// Writes DIR/NAME unless it exists with the right size. bf16 words are float32 values rounded to nearest.
Status Generate(const std::string& path, bool bf16, uint64_t bytes) {
  const uint64_t item = bf16 ? 2 : 4;
  const uint64_t n = bytes / item;
  std::error_code ec;
  if (std::filesystem::file_size(path, ec) == kHeaderBytes + n * item && !ec) return Status::Ok();
  fmt::print("generating {} ({} MiB)\n", path, bytes >> 20);
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  MSP_RETURN_IF_ERROR(file.Write(NpyHeader(bf16 ? "<u2" : "<f4", n)));
  Values values;
  std::vector<std::byte> buffer(4 << 20);
  for (uint64_t done = 0; done < n;) {
    const uint64_t count = std::min<uint64_t>(buffer.size() / item, n - done);
    for (uint64_t i = 0; i < count; ++i) {
      const uint32_t bits = std::bit_cast<uint32_t>(values.Next());
      if (bf16) {
        const auto word = static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
        std::memcpy(buffer.data() + 2 * i, &word, 2);
      } else {
        std::memcpy(buffer.data() + 4 * i, &bits, 4);
      }
    }
    MSP_RETURN_IF_ERROR(file.Write(Bytes(buffer.data(), count * item)));
    done += count;
  }
  return file.Commit();
}

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// User + system CPU seconds of the process so far (all threads).
double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

// The best wall time of a run and the CPU time that run took. Other processes on a shared box slow the
// wall time; the CPU time says what the work itself costs.
struct Timing {
  double wall = 1e30;
  double cpu = 0;
  void Keep(double w, double c) {
    if (w < wall) {
      wall = w;
      cpu = c;
    }
  }
};

// `cat FILE > /dev/null`: read() into a 1 MiB buffer, best of kRepeats.
Result<Timing> TimeRead(const std::string& path) {
  std::vector<char> buffer(1 << 20);
  Timing best;
  for (int r = 0; r < kRepeats; ++r) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return Status::IOError(path, "cannot open");
    const double cpu = CpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    while (::read(fd, buffer.data(), buffer.size()) > 0) {
    }
    best.Keep(Seconds(start), CpuSeconds() - cpu);
    ::close(fd);
  }
  return best;
}

Result<Timing> TimeStats(const TensorSource& source, const StatsOptions& options, TensorStats* stats) {
  Timing best;
  for (int r = 0; r < kRepeats; ++r) {
    const double cpu = CpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    MSP_ASSIGN_OR_RETURN(*stats, ComputeStats(source, options));
    best.Keep(Seconds(start), CpuSeconds() - cpu);
  }
  return best;
}

Status Run(const std::string& dir, uint64_t bytes) {
  std::filesystem::create_directories(dir);
  struct Case {
    const char* label;
    std::string path;
    DType dtype;
  };
  const Case cases[] = {{"float32", dir + "/stats_f32.npy", DType::kF32},
                        {"bfloat16 (uint16 .npy read as kBF16)", dir + "/stats_bf16.npy", DType::kBF16}};
  for (const Case& c : cases) {
    MSP_RETURN_IF_ERROR(Generate(c.path, c.dtype == DType::kBF16, bytes));
    const uint64_t item = c.dtype == DType::kBF16 ? 2 : 4;
    TensorInfo info;
    info.dtype = c.dtype;
    info.shape = {static_cast<int64_t>(bytes / item)};
    info.path = c.path;
    info.data_offset = kHeaderBytes;
    info.storage_elements = bytes / item;
    MSP_RETURN_IF_ERROR(ValidateExtent(info, c.path));
    MSP_ASSIGN_OR_RETURN(TensorSource source, TensorSource::Open(info));
    const double gb = static_cast<double>(bytes) / 1e9;

    MSP_ASSIGN_OR_RETURN(Timing warm, TimeRead(c.path));  // warms the page cache; timed again below
    (void)warm;
    MSP_ASSIGN_OR_RETURN(Timing read, TimeRead(c.path));
    fmt::print("{}: {} MiB, {} elements\n", c.label, bytes >> 20, info.storage_elements);
    fmt::print("  {:<30} {:6.2f} GB/s  {:5.2f}x baseline  cpu {:5.3f} s\n", "read() 1 MiB (baseline)", gb / read.wall,
               1.0, read.cpu);
    struct Variant {
      const char* label;
      StatsOptions options;
    };
    const Variant variants[] = {{"stats only", {.crc32 = false, .xor64 = false}},
                                {"stats + crc32", {.crc32 = true, .xor64 = false}},
                                {"stats + crc32 + xor (default)", {}}};
    for (const Variant& v : variants) {
      TensorStats stats;
      MSP_ASSIGN_OR_RETURN(Timing t, TimeStats(source, v.options, &stats));
      fmt::print("  {:<30} {:6.2f} GB/s  {:5.2f}x baseline  cpu {:5.3f} s  (mean {:.6g} norm {:.6g} crc {:08x})\n",
                 v.label, gb / t.wall, read.wall / t.wall, t.cpu, stats.mean, stats.norm, stats.crc32);
    }
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  fmt::print("peak RSS: {} MiB\n", usage.ru_maxrss / 1024);
  return Status::Ok();
}

}  // namespace
}  // namespace msprobe

int main(int argc, char** argv) {
  return msprobe::bench::BenchMain(argc, argv, "stats_bench", "/tmp/msprobe_bench", 1024,
                                   [](const std::string& dir, uint64_t mib) { return msprobe::Run(dir, mib << 20); });
}
