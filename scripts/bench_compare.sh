#!/usr/bin/env bash
# Builds a Release tree and runs the tensor-compare benchmark: (a) 2,000 float32/bfloat16 .pt pairs of
# about 2.2 GiB in all, GB/s and peak RSS; (b) 50,000 pairs of 4 KiB tensors, pairs/s. Warm page cache;
# the generated files are kept in DATA_DIR for later runs (about 2.8 GB).
# Usage: scripts/bench_compare.sh [DATA_DIR (default /tmp/msprobe_bench_compare)] [SIZE_MIB (default 2200)] [THREADS]
# BUILD_DIR overrides the build tree (default build-bench).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMSPROBE_BENCH=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target compare_tensor_bench
"$build/bench/compare_tensor_bench" "${1:-/tmp/msprobe_bench_compare}" "${2:-2200}" ${3:+"$3"}
