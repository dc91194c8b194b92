#!/usr/bin/env bash
# README command 1: install what is needed, build, and compare the bundled NPU dump with its bench dump.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh" >/dev/null
"$root/scripts/build.sh" "$root/build" >/dev/null
bin=$root/build/apps
out=${MSPROBE_DEMO_OUT:-$root/demo_output}
samples=$root/samples/dist2
echo "== msprobe-dump verify: are the dumps intact? (recomputes every tensor's statistics)"
"$bin/msprobe-dump" verify -q "$samples/npu_t/step0" && "$bin/msprobe-dump" verify "$samples/bench_t/step0"
echo
echo "== msprobe-compare: NPU dump vs bench dump, 2 ranks, tensor mode"
rm -rf "$out"
"$bin/msprobe-compare" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$out"
echo
echo "The spreadsheets (xlsx with highlights and a summary sheet; csv as msprobe writes it) are in: $out"
