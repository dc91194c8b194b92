#include "mpi_cluster.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <thread>

namespace msprobe::compare {
namespace {

// MPI counts are ints: larger messages go in pieces of this many bytes.
constexpr size_t kPiece = size_t{1} << 30;

void Check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI ") + what + " failed");
}

// Launchers say so in the environment: OpenMPI's mpirun, PMI-1/2 (MPICH's hydra, Slurm's srun
// --mpi=pmi2) and PMIx (srun --mpi=pmix, OpenMPI 5).
bool LaunchedByMpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

// Waits for `requests` without taking a core. MPI's blocking calls poll until they are done, so a
// process that waits for another (still comparing, or still outlining a dump) takes a core from it
// whenever a host runs more threads than it has cores (docs/distributed.md §8). Only the waits for
// another process to arrive go through here: each transfer first exchanges its size this way, and
// its bytes, which follow at once, go through the blocking calls (their polling is the copying).
// Returns MPI's code.
int AwaitQuietly(int count, MPI_Request* requests) {
  constexpr auto kLongestPause = std::chrono::milliseconds(1);  // what a wait may add to a step
  auto pause = std::chrono::microseconds(10);
  for (;;) {
    int done = 0;
    if (const int rc = MPI_Testall(count, requests, &done, MPI_STATUSES_IGNORE); rc != MPI_SUCCESS || done) return rc;
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(pause * 2, kLongestPause);
  }
}

// A message's size, sent synchronously: done once the receiver has taken it, so the bytes after it
// find the receiver ready instead of a sender polling until it is.
void SendSize(uint64_t size, int to) {
  MPI_Request request;
  Check(MPI_Issend(&size, 1, MPI_UINT64_T, to, 0, MPI_COMM_WORLD, &request), "send");
  Check(AwaitQuietly(1, &request), "send");
}

uint64_t ReceiveSize(int from) {
  uint64_t size = 0;
  MPI_Request request;
  Check(MPI_Irecv(&size, 1, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, &request), "receive");
  Check(AwaitQuietly(1, &request), "receive");
  return size;
}

void SendBytes(const std::string& bytes, int to) {
  SendSize(bytes.size(), to);
  for (size_t at = 0; at < bytes.size(); at += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, bytes.size() - at));
    Check(MPI_Send(bytes.data() + at, n, MPI_BYTE, to, 0, MPI_COMM_WORLD), "send");
  }
}

std::string ReceiveBytes(int from) {
  std::string bytes(ReceiveSize(from), '\0');
  for (size_t at = 0; at < bytes.size(); at += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, bytes.size() - at));
    Check(MPI_Recv(bytes.data() + at, n, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "receive");
  }
  return bytes;
}

class MpiWorld final : public Cluster {
 public:
  MpiWorld() {
    Check(MPI_Comm_rank(MPI_COMM_WORLD, &process_), "rank");
    Check(MPI_Comm_size(MPI_COMM_WORLD, &processes_), "size");
    MPI_Comm host;
    Check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host), "split");
    Check(MPI_Comm_size(host, &local_), "size");
    MPI_Comm_free(&host);
  }
  ~MpiWorld() override {
    // MPI_Finalize waits for the processes still at work, polling: they arrive here first. A failure
    // leaves nothing to do but finalize.
    MPI_Request all_here;
    if (MPI_Ibarrier(MPI_COMM_WORLD, &all_here) == MPI_SUCCESS) AwaitQuietly(1, &all_here);
    MPI_Finalize();
  }

  int process() const override { return process_; }
  int processes() const override { return processes_; }
  int local_processes() const override { return local_; }

  std::vector<std::string> Gather(const std::string& mine) override {
    if (process_ != 0) {
      SendBytes(mine, 0);
      return {};
    }
    std::vector<std::string> all(processes_);
    all[0] = mine;
    for (int p = 1; p < processes_; ++p) all[p] = ReceiveBytes(p);
    return all;
  }

  std::string Broadcast(const std::string& value) override {
    uint64_t size = value.size();
    MPI_Request request;
    Check(MPI_Ibcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &request), "broadcast");
    Check(AwaitQuietly(1, &request), "broadcast");
    std::string bytes = process_ == 0 ? value : std::string(size, '\0');
    for (size_t at = 0; at < bytes.size(); at += kPiece) {
      const int n = static_cast<int>(std::min(kPiece, bytes.size() - at));
      Check(MPI_Bcast(bytes.data() + at, n, MPI_BYTE, 0, MPI_COMM_WORLD), "broadcast");
    }
    return bytes;
  }

  // Pairwise in rounds (round r: send to process + r, receive from process - r). The sizes go first,
  // awaited quietly until both partners are in the round; each transfer's pieces are then posted at
  // once, so neither side of a round waits on the other.
  std::vector<std::string> Exchange(const std::vector<std::string>& to) override {
    std::vector<std::string> from(processes_);
    from[process_] = to[process_];
    for (int r = 1; r < processes_; ++r) {
      const int dest = (process_ + r) % processes_, source = (process_ - r + processes_) % processes_;
      uint64_t out_size = to[dest].size(), in_size = 0;
      MPI_Request sizes[2];
      Check(MPI_Issend(&out_size, 1, MPI_UINT64_T, dest, 1, MPI_COMM_WORLD, &sizes[0]), "exchange");
      Check(MPI_Irecv(&in_size, 1, MPI_UINT64_T, source, 1, MPI_COMM_WORLD, &sizes[1]), "exchange");
      Check(AwaitQuietly(2, sizes), "exchange");
      from[source].resize(in_size);
      std::vector<MPI_Request> requests;
      for (size_t at = 0; at < out_size; at += kPiece) {
        requests.emplace_back();
        Check(MPI_Isend(to[dest].data() + at, static_cast<int>(std::min(kPiece, out_size - at)), MPI_BYTE, dest, 2,
                        MPI_COMM_WORLD, &requests.back()),
              "exchange");
      }
      for (size_t at = 0; at < in_size; at += kPiece) {
        requests.emplace_back();
        Check(MPI_Irecv(from[source].data() + at, static_cast<int>(std::min(kPiece, in_size - at)), MPI_BYTE, source,
                        2, MPI_COMM_WORLD, &requests.back()),
              "exchange");
      }
      Check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "exchange");
    }
    return from;
  }

 private:
  int process_ = 0, processes_ = 1, local_ = 1;
};

}  // namespace

std::unique_ptr<Cluster> JoinMpiWorld(int* argc, char*** argv) {
  if (!LaunchedByMpi()) return nullptr;
  int provided = 0;
  Check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "init");
  // A failed call returns its code to us, which reports it, instead of ending the job at once.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  return std::make_unique<MpiWorld>();
}

void AbortMpiWorld(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();
}

}  // namespace msprobe::compare
