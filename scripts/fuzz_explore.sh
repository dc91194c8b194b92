#!/usr/bin/env bash
# Explores with every fuzz target for longer than CI does, from a random or given seed, keeping the
# grown corpus under DIR (default /tmp/msprobe_fuzz) so later runs go on from it. A crash leaves its
# input in DIR/<name>/; add it to tests/fuzz/corpus/<name>/ once fixed, so CI replays it.
# Usage: scripts/fuzz_explore.sh [SECONDS_PER_FUZZER] [DIR] [SEED]   (needs scripts/sanitize.sh's build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-300}
dir=${2:-/tmp/msprobe_fuzz}
seed=${3:-0}  # 0: libFuzzer picks one
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for fuzzer in "$root"/build-asan/tests/fuzz/*_fuzz; do
  name=$(basename "$fuzzer" _fuzz)
  mkdir -p "$dir/$name/corpus"
  cp -rn "$root/tests/fuzz/corpus/$name/." "$dir/$name/corpus/" 2>/dev/null || true
  if (cd "$dir/$name" && "$fuzzer" -seed="$seed" -max_total_time="$seconds" -rss_limit_mb=2048 \
      -print_final_stats=1 corpus >run.log 2>&1); then
    echo "fuzz: $name clean ($(grep -o 'Done [0-9]* runs' "$dir/$name/run.log"))"
  else
    echo "fuzz: $name FAILED, see $dir/$name/run.log"; status=1
  fi
done
exit $status
