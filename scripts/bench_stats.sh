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

# The issue's own case: a real 1 GiB bfloat16 .pt written by torch (when Debian's python3-torch is
# installed), timed through msprobe-dump stats beside `cat FILE > /dev/null` in the same run.
pt=${1:-/tmp/msprobe_bench}/bf16_1gib.pt
if [ ! -f "$pt" ] && /usr/bin/python3 -c 'import torch' 2>/dev/null; then
  /usr/bin/python3 -c "import torch; g = torch.Generator().manual_seed(0); \
torch.save(torch.randn(512 * 1024 * 1024, generator=g).to(torch.bfloat16), '$pt')"
fi
if [ -f "$pt" ]; then
  cmake --build "$build" --parallel "$(nproc)" --target msprobe-dump >/dev/null
  cat "$pt" > /dev/null  # warm the page cache
  bytes=$(stat -c %s "$pt")
  t0=$(date +%s.%N); cat "$pt" > /dev/null; t1=$(date +%s.%N)
  /usr/bin/time -f "%M" -o /tmp/msprobe_bench_rss "$build/apps/msprobe-dump" stats -q "$pt" > /dev/null
  t2=$(date +%s.%N)
  awk -v b="$bytes" -v t0="$t0" -v t1="$t1" -v t2="$t2" -v r="$(cat /tmp/msprobe_bench_rss)" \
    'BEGIN { c = t1 - t0; s = t2 - t1; printf "bf16 .pt via msprobe-dump stats: %.2f GB/s (cat: %.2f GB/s, ratio %.2f), peak RSS %.0f MB\n", b/s/1e9, b/c/1e9, c/s, r/1024 }'
fi
