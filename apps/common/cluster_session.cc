#include "common/cluster_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <thread>

#include <tbb/info.h>

#include "common/exit_codes.h"
#include "common/stderr_report.h"
#include "msprobe/dump/util/coding.h"
#ifdef MSPROBE_MPI
#include "mpi_cluster.h"
#endif

namespace msprobe::cli {

#ifdef MSPROBE_MPI
ClusterSession::ClusterSession(int* argc, char*** argv) : cluster_(compare::JoinMpiWorld(argc, argv)) {}
#else
ClusterSession::ClusterSession(int*, char***) {}
#endif

ClusterSession::~ClusterSession() = default;

int ClusterSession::Run(std::string_view program, const std::function<int()>& body) {
  program_ = program;
  bool completed = false;
  const int code = GuardedMain(program, [&] {
    const int c = body();
    completed = true;
    return c;
  });
#ifdef MSPROBE_MPI
  if (!completed && several()) compare::AbortMpiWorld(code);
#endif
  return code;
}

int ClusterSession::AgreeExitCode(int code) {
  if (!several()) return code;
  std::string mine;
  PutSignedVarint32(&mine, code);
  int32_t agreed = 0;
  DecodeMessage(cluster_->Broadcast(mine), "the exit code", [&](Decoder* in) { return GetSignedVarint32(in, &agreed); });
  return agreed;
}

std::unique_ptr<tbb::global_control> ClusterSession::ApplyThreads(const CommonOptions& options) const {
  if (options.threads > 0 || !several()) return cli::ApplyThreads(options);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned share = std::max(1u, cores / static_cast<unsigned>(cluster_->local_processes()));
  // The cores the launcher lets this process run on: OpenMPI binds each process to one core when it
  // starts two or fewer, Slurm to what --cpus-per-task gives.
  const auto usable = static_cast<unsigned>(std::max(1, tbb::info::default_concurrency()));
  if (usable < share && root() && !options.quiet) {
    cli::PrintErr(
        "{}: note: the launcher bound each process to {} core(s) of the {} it could use here; "
        "mpirun --bind-to none (or srun --cpu-bind=none, or --cpus-per-task={}) gives each its share\n",
        program_, usable, share, share);
  }
  return std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, std::min(usable, share));
}

std::string ClusterSession::Prefix() const {
  return several() ? fmt::format("process {} of {}: ", cluster_->process(), cluster_->processes()) : std::string();
}

}  // namespace msprobe::cli
