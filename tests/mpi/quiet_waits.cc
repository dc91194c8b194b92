// Run under mpirun -np 2 (tests/cli/mpi_quiet_waits_test.sh): a process waiting for another inside a
// Cluster call takes no core (docs/distributed.md §8, "Waiting without polling"). In each call one
// process arrives kLate after the other; the early one's CPU time over the call must stay far below
// its wait, where MPI's own polling would spend the whole wait on a core. Exits 1 with a line naming
// the call when it does not; prints one line per call checked.
#include <fmt/format.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mpi_cluster.h"

namespace {

constexpr auto kLate = std::chrono::milliseconds(1500);
// What waiting may cost: the tests of the call, at most 1 ms apart, and copying 1 MiB (about 0.03 s
// in all here). Polling costs the whole wait, 1.5 s; OpenMPI's MPI_Finalize, 0.17 s.
constexpr double kMostCpuSeconds = 0.1;

double Seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Runs `call` on every process, process `late` kLate after the others; true when the early one
// (`me` is this process) spent little CPU on it.
bool CheckQuiet(int me, const char* name, int late, const std::function<void()>& call) {
  if (me == late) std::this_thread::sleep_for(kLate);
  const double wall = Seconds(CLOCK_MONOTONIC), cpu = Seconds(CLOCK_PROCESS_CPUTIME_ID);
  call();
  const double waited = Seconds(CLOCK_MONOTONIC) - wall, spent = Seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
  if (me == late) return true;
  const bool quiet = spent < kMostCpuSeconds;
  fmt::print("process {}: {}: waited {:.2f} s, {:.3f} CPU s{}\n", me, name, waited, spent,
             quiet ? "" : " (polled: at most 0.1 CPU s expected)");
  return quiet;
}

}  // namespace

int main(int argc, char** argv) {
  std::unique_ptr<msprobe::Cluster> cluster = msprobe::compare::JoinMpiWorld(&argc, &argv);
  if (!cluster || cluster->processes() != 2) {
    std::fprintf(stderr, "quiet_waits: run under mpirun -np 2\n");
    return 2;
  }
  const std::string bytes(1 << 20, 'x');  // the bytes after the size: copied, not waited for
  const int me = cluster->process();
  bool quiet = true;
  quiet &= CheckQuiet(me, "Broadcast", 0, [&] { cluster->Broadcast(bytes); });
  quiet &= CheckQuiet(me, "Gather, process 0 waiting", 1, [&] { cluster->Gather(bytes); });
  quiet &= CheckQuiet(me, "Gather, process 1 waiting", 0, [&] { cluster->Gather(bytes); });
  quiet &= CheckQuiet(me, "Exchange", 1, [&] { cluster->Exchange({bytes, bytes}); });
  quiet &= CheckQuiet(me, "MPI_Finalize", 1, [&] { cluster.reset(); });
  return quiet ? 0 : 1;
}
