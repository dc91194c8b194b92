#!/usr/bin/env bash
# Builds with clang under ASan+UBSan (with libFuzzer coverage), runs every test there, then runs each
# fuzz target briefly from its seed corpus. Usage: scripts/sanitize.sh [SECONDS_PER_FUZZER]
# The fuzzers start from a fixed seed (MSPROBE_FUZZ_SEED, default 1) so that CI replays a prefix of
# the same mutation sequence a longer local run has already explored: CI stays repeatable, and
# exploring with other seeds is a separate job (scripts/fuzz_explore.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-30}
build=$root/build-asan
"$root/scripts/deps.sh" >/dev/null
CC=clang CXX=clang++ "$root/scripts/build.sh" "$build" -DMSPROBE_FUZZ=ON -DMSPROBE_BENCH=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The LibreOffice tests check what LibreOffice reads, not our memory safety: the Release run has them.
(cd "$build" && ctest --output-on-failure --parallel "$(nproc)" -LE client)
for fuzzer in "$build"/tests/fuzz/*_fuzz; do
  name=$(basename "$fuzzer" _fuzz)
  corpus=$(mktemp -d)
  cp -r "$root/tests/fuzz/corpus/$name/." "$corpus/" 2>/dev/null || true
  echo "fuzz: $name for ${seconds}s"
  "$fuzzer" -seed="${MSPROBE_FUZZ_SEED:-1}" -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=0 "$corpus" 2>"$corpus.log" \
    || { tail -40 "$corpus.log"; exit 1; }
  rm -rf "$corpus" "$corpus.log"
done
echo "sanitizers and fuzzers: clean"
