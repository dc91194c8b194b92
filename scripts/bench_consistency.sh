#!/usr/bin/env bash
# Builds a Release tree and runs the consistency benchmark: msprobe-dump consistency's job on one step
# of RANKS generated statistics dumps (KB_PER_FILE KB each, written once into DATA_DIR), MB/s of JSON
# and the ratio to stream-parsing the same files in the same run; warm page cache.
# Usage: scripts/bench_consistency.sh [DATA_DIR (default /tmp/msprobe_bench/consistency)] [KB_PER_FILE (256)] [RANKS (1000)]
# BUILD_DIR overrides the build tree (default build-bench).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMSPROBE_BENCH=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target consistency_bench
dir=${1:-/tmp/msprobe_bench/consistency}
"$build/bench/consistency_bench" "$dir" "${2:-256}" "${3:-1000}" > /dev/null  # writes the dumps, warms the cache
"$build/bench/consistency_bench" "$dir" "${2:-256}" "${3:-1000}"
