// What the data benchmarks share: the command line [DIR] [SIZE_MIB] [THREADS] (TBB capped at
// THREADS), a deterministic generator of their tensor values, and warming a file's page cache.
#pragma once

#include <sys/resource.h>
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe::bench {

// Roughly N(0, 1) values from xorshift64 (the sum of four uniforms), the same on every run.
class NormalValues {
 public:
  explicit NormalValues(uint64_t state) : state_(state) {}
  float Next() {
    double s = 0;
    for (int k = 0; k < 4; ++k) {
      state_ ^= state_ << 13;
      state_ ^= state_ >> 7;
      state_ ^= state_ << 17;
      s += static_cast<double>(state_ >> 11) * 0x1p-53;
    }
    return static_cast<float>((s - 2.0) * 1.7320508);
  }

 private:
  uint64_t state_;
};

// Reads a file once so the timed runs find it in the page cache.
inline void WarmFile(const std::string& path) {
  std::vector<char> buffer(1 << 20);
  std::ifstream in(path, std::ios::binary);
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()))) {
  }
}

// User + system CPU seconds of the process so far (all threads): beside wall time, it shows whether
// other processes took cores away from a run (the machine may be shared).
inline double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

// Calls run(dir, mib) and turns its Status into an exit code.
template <class Run>
int BenchMain(int argc, char** argv, const char* name, const char* default_dir, uint64_t default_mib, Run run) {
  const std::string dir = argc > 1 ? argv[1] : default_dir;
  const uint64_t mib = argc > 2 ? std::stoull(argv[2]) : default_mib;
  const int threads = argc > 3 ? std::stoi(argv[3]) : tbb::info::default_concurrency();
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<size_t>(threads));
  std::printf("threads: %d\n", threads);
  const Status status = run(dir, mib);
  if (!status.ok()) {
    std::fprintf(stderr, "%s: error: %s\n", name, status.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace msprobe::bench
