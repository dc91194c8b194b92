// The processes one run is spread over (docs/distributed.md): N copies of a program started by
// mpirun or srun, numbered 0..N-1, that exchange bytes. "Process", never "rank": a rank is a dump's.
// The plain build has no implementation and runs alone; the MPI build (-DMSPROBE_MPI=ON) gives one
// over MPI_COMM_WORLD (libcompare/mpi/). Every call is collective: all processes make the same calls
// in the same order, from one thread, or the run deadlocks. What they send is written with coding.h.
#pragma once

#include <string>
#include <vector>

#include "msprobe/dump/util/status.h"

namespace msprobe {

class Cluster {
 public:
  virtual ~Cluster() = default;
  virtual int process() const = 0;        // this one, 0 .. processes() - 1
  virtual int processes() const = 0;
  virtual int local_processes() const = 0;  // how many of them share this host (and its cores)
  // Each process's `mine`, in process order, on process 0; an empty vector on the others.
  virtual std::vector<std::string> Gather(const std::string& mine) = 0;
  // Process 0's `value` on every process (the others' argument is ignored).
  virtual std::string Broadcast(const std::string& value) = 0;
  // Each process's `mine`, in process order, on every process.
  std::vector<std::string> AllGather(const std::string& mine);
  // Each process's bytes for each other: `to[p]` goes to process p; returns what each sent to us.
  virtual std::vector<std::string> Exchange(const std::vector<std::string>& to) = 0;
  bool root() const { return process() == 0; }
};

// The first failure of any process, in process order, on every process (ok when none failed): a step
// that may fail on some processes only ends with it, so that all go on, or all stop, together.
Status AgreeOnFailure(Cluster& cluster, const Status& mine);

}  // namespace msprobe
