#!/usr/bin/env bash
# In the MPI build, a process that waits for another inside a Cluster call (a broadcast, a gather
# either way, an exchange, the end of the run) sleeps instead of polling (docs/distributed.md §8):
# tests/mpi/quiet_waits.cc under mpirun -np 2, one process 1.5 s late to each call, the early one's
# CPU time measured over it. Skips (77) in the plain build, without mpirun, or under an emulator
# (whose CPU times are its own).
source "$(dirname "$0")/lib.sh"
require_mpi
[ -z "${MSPROBE_EMULATED:-}" ] || { echo "emulated: the CPU times would be qemu's"; exit 77; }
run timeout 120 mpirun -np 2 "$MSPROBE_BIN/../tests/mpi_quiet_waits"
expect_code 0 "a waiting process polled"
for call in "Broadcast" "Gather, process 0 waiting" "Gather, process 1 waiting" "Exchange" "MPI_Finalize"; do
  expect_out ": $call: waited 1."
done
finish
