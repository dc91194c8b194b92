// The Cluster of an MPI build: MPI_COMM_WORLD, joined for the program's lifetime.
#pragma once

#include <memory>

#include "msprobe/dump/util/cluster.h"

namespace msprobe::compare {

// Initializes MPI (funneled: only the main thread calls it) and returns the world, or nullptr when
// the program was not started by an MPI launcher: a plain command line then runs exactly as the
// plain build does, without MPI. Call once; the world is finalized when the returned object goes.
std::unique_ptr<Cluster> JoinMpiWorld(int* argc, char*** argv);

// Ends every process of the run with `code` (a process that failed outside the collective steps
// would otherwise leave the others waiting for it).
[[noreturn]] void AbortMpiWorld(int code);

}  // namespace msprobe::compare
