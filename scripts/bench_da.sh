#!/usr/bin/env bash
# Benchmark of msprobe-compare -da: 8 ranks x ~200 MB statistics dumps (generated once under DIR),
# timed against a plain csv compare of the same dumps. Usage: scripts/bench_da.sh [DIR] [MB_PER_RANK]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target da_bench >/dev/null
"$build/bench/da_bench" "${1:-/tmp/msprobe_bench/da}" "${2:-200}"
