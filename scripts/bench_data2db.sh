#!/usr/bin/env bash
# Builds a Release tree and runs the trend database benchmark: data2db on generated statistics dumps
# (RANKS × STEPS dump.json files of MB_PER_FILE MB each, written once into DATA_DIR), MB/s of JSON and
# the ratio to stream-parsing the same files in the same run; warm page cache.
# Usage: scripts/bench_data2db.sh [DATA_DIR (default /tmp/msprobe_bench/data2db)] [MB_PER_FILE (16)] [RANKS (8)] [STEPS (4)]
# BUILD_DIR overrides the build tree (default build-bench).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMSPROBE_BENCH=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target data2db_bench
dir=${1:-/tmp/msprobe_bench/data2db}
"$build/bench/data2db_bench" "$dir" "${2:-16}" "${3:-8}" "${4:-4}" > /dev/null  # writes the dumps, warms the cache
"$build/bench/data2db_bench" "$dir" "${2:-16}" "${3:-8}" "${4:-4}"
