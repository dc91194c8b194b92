#!/usr/bin/env bash
# Builds a Release tree and runs the kernel-dump compare benchmark: two npy kernel dump trees of
# SIZE_MIB each (default 1024), warm page cache, GB/s of target + golden bytes beside a plain read().
# The generated trees are kept in DATA_DIR for later runs (about 2 GiB).
# Usage: scripts/bench_kernel.sh [DATA_DIR (default /tmp/msprobe_bench_kernel)] [SIZE_MIB (default 1024)] [THREADS]
# BUILD_DIR overrides the build tree (default build-bench).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMSPROBE_BENCH=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target kernel_compare_bench
"$build/bench/kernel_compare_bench" "${1:-/tmp/msprobe_bench_kernel}" "${2:-1024}" ${3:+"$3"}
