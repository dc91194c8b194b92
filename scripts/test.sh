#!/usr/bin/env bash
# README command 2: install what is needed, build, and run the whole test suite with ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh" >/dev/null
# The MPI build (docs/distributed.md): run alone it is the plain build, so every test runs on it, and
# the MPI tests (tests/cli/mpi_test.sh) run it under mpirun. The plain build is tested by
# scripts/sanitize.sh and scripts/test_arm64.sh.
"$root/scripts/build.sh" "$root/build" -DMSPROBE_MPI=ON
cd "$root/build"
ctest --output-on-failure --parallel "$(nproc)"
