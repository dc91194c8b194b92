#!/usr/bin/env bash
# Builds a Release tree and runs the float64 recompute benchmark (CheckDumpCalls): a Functional.linear
# dump and an elementwise dump of SIZE_MIB each (default 1024), warm page cache; GFLOP/s beside Eigen's
# float64 GEMM peak, GB/s beside LoadFp64Tensor alone, peak RSS per phase. The generated dumps are
# kept in DATA_DIR for later runs (about 2 GiB).
# Usage: scripts/bench_recompute.sh [DATA_DIR (default /tmp/msprobe_bench_recompute)] [SIZE_MIB (default 1024)] [THREADS]
# BUILD_DIR overrides the build tree (default build-bench).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMSPROBE_BENCH=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target recompute_bench
"$build/bench/recompute_bench" "${1:-/tmp/msprobe_bench_recompute}" "${2:-1024}" ${3:+"$3"}
