#!/usr/bin/env bash
# Builds a Release tree and runs the merge benchmark: 64 statistics-mode compare results of 100,000
# rows each (our csv by default, or our xlsx), merged into one workbook; prints seconds and peak RSS.
# The generated results are kept in DATA_DIR for later runs (about 1.5 GB as csv). Warm page cache.
# Usage: scripts/bench_merge.sh [DATA_DIR (default /tmp/msprobe_bench_merge)] [RANKS] [ROWS] [csv|xlsx]
# BUILD_DIR overrides the build tree (default build-bench).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMSPROBE_BENCH=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target merge_bench
"$build/bench/merge_bench" "${1:-/tmp/msprobe_bench_merge}" "${2:-64}" "${3:-100000}" "${4:-csv}"
