#!/usr/bin/env bash
# Checks that two builds write the same outputs: every program runs on benchmark-like data (generated
# once by this build's benchmarks) and on the repository's samples and fixtures, with the programs of
# OLD and of NEW; timestamps and paths are normalized, xlsx packages unpacked, and the trees diffed.
# For restructurings that must not change behaviour.
# Usage: scripts/same_outputs.sh OLD_APPS_DIR [NEW_APPS_DIR (default build/apps)] [DATA_DIR]
# e.g.  git worktree add /tmp/old <rev> && scripts/build.sh /tmp/old/build && scripts/same_outputs.sh /tmp/old/build/apps
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=$1
new=${2:-$root/build/apps}
data=${3:-/tmp/msprobe_same_outputs}
bench=$root/build/bench
samples=$root/samples/dist2
fixtures=$root/tests/data

[ -f "$data/.done" ] || {
  mkdir -p "$data"
  "$bench/da_bench" "$data/da" 10 >/dev/null 2>&1 &&
    "$bench/compare_stats_bench" "$data/stats" 30 >/dev/null &&
    "$bench/merge_bench" "$data/merge" 8 5000 csv >/dev/null &&
    "$bench/merge_bench" "$data/mergex" 8 5000 xlsx >/dev/null &&
    "$bench/kernel_compare_bench" "$data/kernel" 40 >/dev/null &&
    touch "$data/.done" || { echo "same_outputs: cannot generate the data with $bench" >&2; exit 2; }
}

# run_all BIN OUT: every program's outputs, stdout, stderr and exit code under OUT, normalized.
run_all() {
  local bin=$1 out=$2
  rm -rf "$out" && mkdir -p "$out"
  r() { local name=$1; shift; "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"; echo $? >"$out/$name.rc"; }
  r da $bin/msprobe-compare -q -tp $data/da/npu/step0 -gp $data/da/bench/step0 -o $out/da -da
  r da_csv $bin/msprobe-compare -q -tp $data/da/npu/step0 -gp $data/da/bench/step0 -o $out/da_csv --json \
    --junit $out/da_csv/junit.xml
  r stats $bin/msprobe-compare -q -tp $data/stats/npu/dump.json -gp $data/stats/bench/dump.json -o $out/stats --json
  r samples $bin/msprobe-compare -q -tp $samples/npu_t/step0 -gp $samples/bench_t/step0 -o $out/samples --json \
    --junit $out/samples/junit.xml
  r samples_fm $bin/msprobe-compare -q -tp $samples/npu_t/step0/rank0 -gp $samples/bench_t/step0/rank0 \
    -o $out/samples_fm -fm
  r kernel $bin/msprobe-compare -q -tp $data/kernel/npu -gp $data/kernel/bench --rank 0 -o $out/kernel
  r kernel_t $bin/msprobe-compare -q -tp $fixtures/kernel/npu -gp $fixtures/kernel/bench --rank 0 -o $out/kernel_t
  r merge $bin/msprobe-merge -q -i $data/merge/csv_8x5000 -o $out/merge -config $data/merge/merge_bench.yaml
  r mergex $bin/msprobe-merge -q -i $data/mergex/xlsx_8x5000 -o $out/mergex -config $data/mergex/merge_bench.yaml
  r convert $bin/msprobe-convert -q -d $fixtures/bin/cases -o $out/convert
  r verify $bin/msprobe-dump verify $samples/npu_t/step0/rank0
  r stat $bin/msprobe-dump stats $(ls $fixtures/npy/*.npy | head -20)
  cp -r $fixtures/kernel/npu $out/statistic_tree
  r statistic $bin/msprobe-dump statistic $out/statistic_tree
  "$root/scripts/normalize_outputs.sh" "$out"
}

run_all "$old" "$data/old"
run_all "$new" "$data/new"
if diff -r "$data/old" "$data/new" >"$data/diff"; then
  echo "same_outputs: every output of $new equals $old's"
else
  echo "same_outputs: outputs differ (all of it in $data/diff):"
  head -40 "$data/diff"
  exit 1
fi
