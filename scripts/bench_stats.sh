#!/usr/bin/env bash
# Builds a Release tree and runs the statistics benchmark (1 GiB float32 and bfloat16, warm page cache).
# Usage: scripts/bench_stats.sh [DATA_DIR (default /tmp/msprobe_bench)] [SIZE_MIB (default 1024)]
# BUILD_DIR overrides the build tree (default build-bench).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMSPROBE_BENCH=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target stats_bench
"$build/bench/stats_bench" "${1:-/tmp/msprobe_bench}" "${2:-1024}"
