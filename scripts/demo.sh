#!/usr/bin/env bash
# README command 1: install what is needed, build, and run the main job on the bundled samples.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh" >/dev/null
"$root/scripts/build.sh" "$root/build" >/dev/null
bin=$root/build/apps
out=${MSPROBE_DEMO_OUT:-$root/demo_output}
mkdir -p "$out"
echo "== msprobe-dump verify: recompute every tensor's statistics and check them against dump.json"
"$bin/msprobe-dump" verify "$root/samples/dist2/npu_t/step0"
echo
echo "== msprobe-dump stats: statistics of two tensor files"
"$bin/msprobe-dump" stats "$root"/samples/dist2/npu_t/step0/rank0/dump_tensor_data/Functional.linear.0.forward.{input,output}.0.pt
"$bin/msprobe-dump" stats --json "$root"/samples/dist2/npu_t/step0/rank0/dump_tensor_data/*.pt > "$out/stats_rank0.json"
echo
echo "Statistics of every rank0 tensor file: $out/stats_rank0.json"
