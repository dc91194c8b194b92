// The processes a program runs among (docs/distributed.md): in an MPI build (-DMSPROBE_MPI=ON)
// started by mpirun or srun, the MPI world; otherwise none, and the program runs alone exactly as
// the plain build does.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <tbb/global_control.h>

#include "common/app_options.h"
#include "msprobe/dump/util/cluster.h"

namespace msprobe::cli {

class ClusterSession {
 public:
  ClusterSession(int* argc, char*** argv);
  ~ClusterSession();

  Cluster* cluster() const { return cluster_.get(); }  // nullptr when alone
  bool several() const { return cluster_ && cluster_->processes() > 1; }
  bool root() const { return !cluster_ || cluster_->root(); }  // process 0, or alone: prints the results

  // GuardedMain over the program's body. With several processes, an exception escaping it on one
  // of them ends them all (after its one-line report), so none waits for it forever.
  int Run(std::string_view program, const std::function<int()>& body);
  // Process 0's `code`, on every process: they all exit with the run's code.
  int AgreeExitCode(int code);
  // --threads, or with several processes on this host, its cores shared among them (no more than
  // the launcher's binding allows; process 0 notes a binding narrower than the share).
  std::unique_ptr<tbb::global_control> ApplyThreads(const CommonOptions& options) const;
  // "process 2 of 4: " before a line this process prints about its own share; "" when alone.
  std::string Prefix() const;

 private:
  std::unique_ptr<Cluster> cluster_;
  std::string_view program_ = "msprobe";  // Run's, for the notes
};

}  // namespace msprobe::cli
