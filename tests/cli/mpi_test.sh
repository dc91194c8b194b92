#!/usr/bin/env bash
# msprobe-compare and msprobe-merge across MPI processes (docs/distributed.md), in the MPI build:
# every output of a run with mpirun -np 1, 2 and 4 equals the single-process run's byte for byte once
# timestamps are normalized (scripts/normalize_outputs.sh), on the samples (2 ranks), on one pair
# split by rows (tensor, MoE scratch rows and --consistent_check included, and statistics), with --align,
# on a 16-rank dump, for msprobe-merge over its 16 workbooks, and with -da (8 ranks, first diff marked in
# the xlsx); then the failures: a bad dump on one rank, a setup failure on one process only, and a process
# killed mid-run.
# Skips (77) in the plain build or without mpirun.
source "$(dirname "$0")/lib.sh"
require_mpi  # 4 processes on 2 cores
COMPARE=$MSPROBE_BIN/msprobe-compare
SAMPLES=$MSPROBE_ROOT/samples/dist2

# with_np N CMD...: CMD alone (N=0) or under mpirun -np N, with a deadline: a deadlock fails the test.
with_np() {
  local n=$1; shift
  if [ "$n" = 0 ]; then timeout 300 "$@"; else timeout 300 mpirun -np "$n" "$@"; fi
}
# compare_run DIR N ARGS...: one run's outputs, stdout, our stderr lines (mpirun's banners cut) and
# exit code under DIR, normalized.
compare_run() {
  local dir=$1 n=$2; shift 2
  mkdir -p "$dir/out"
  with_np "$n" "$COMPARE" -q "$@" -o "$dir/out" >"$dir/run.stdout" 2>"$dir/run.err"
  echo $? >"$dir/run.rc"
  sed '/^------/,$d' "$dir/run.err" >"$dir/run.stderr" && rm "$dir/run.err"
  check_summaries "$dir"  # before normalizing rewrites its numbers
  "$MSPROBE_ROOT/scripts/normalize_outputs.sh" "$dir"
}
SUMMARIES_CHECKED=1
# same_as_alone NAME ARGS...: -np 1, 2 and 4 write what the run without mpirun writes.
same_as_alone() {
  local name=$1; shift
  compare_run "$TMP/$name/alone" 0 "$@"
  for n in 1 2 4; do
    compare_run "$TMP/$name/np$n" "$n" "$@"
    checks=$((checks + 1))
    diff -r "$TMP/$name/alone" "$TMP/$name/np$n" >"$TMP/$name/diff$n" ||
      fail "$name: -np $n differs from one process: $(head -20 "$TMP/$name/diff$n")"
  done
}

# The samples: two rank pairs, every output kind.
same_as_alone samples -tp "$SAMPLES/npu_t/step0" -gp "$SAMPLES/bench_t/step0" --csv --xlsx --json --html \
  --junit "$TMP/junit.xml"
[ "$(cat "$TMP/samples/alone/run.rc")" = 0 ] || fail "samples: exit $(cat "$TMP/samples/alone/run.rc")"
ls "$TMP/samples/np4/out/compare_result_rank1_TS.xlsx.d/xl/worksheets/sheet1.xml" >/dev/null || fail "samples: no xlsx"

# One pair, larger than a process's share: its rows are split among the processes, each reading the
# tensor files of its slice; --fail-on gives the same exit code and gate line.
same_as_alone split -tp "$SAMPLES/npu_t/step0/rank0" -gp "$SAMPLES/bench_t/step0/rank0" --json --fail-on error
[ "$(cat "$TMP/split/np4/run.rc")" = 1 ] || fail "split: --fail-on error should fail the gate"
grep -q "gate failed" "$TMP/split/np4/run.stderr" || fail "split: no gate line: $(cat "$TMP/split/np4/run.stderr")"

# --align (docs/compare.md §3.8): every process sharing a tensor pair aligns it alike before computing
# its slice of the metrics; a statistics pair is compared whole.
for mode in tensor statistics; do
  same_as_alone "align_$mode" -tp "$MSPROBE_ROOT/tests/data/align/softmax/$mode/target/dump.json" \
    -gp "$MSPROBE_ROOT/tests/data/align/softmax/$mode/golden/dump.json" --align --json --html
  grep -q ',Match$' "$TMP/align_$mode/np4/out/"compare_result_TS.csv || fail "align_$mode: no Match column"
done
# MoE scratch rows (tests/data/moe): each process's slice of the rows cleans the target outputs it holds.
moe=$MSPROBE_ROOT/tests/data/moe/tensor
same_as_alone moe -tp "$moe/npu/dump.json" -gp "$moe/bench/dump.json" --csv --json --html
# --consistent_check (tests/data/verl): each process pairs the whole dumps, computes its slice's tensors.
verl=$MSPROBE_ROOT/tests/data/verl/megatron/tensor
same_as_alone verl -tp "$verl/train/dump.json" -gp "$verl/infer/dump.json" --consistent_check --backend megatron --csv --json

# 16 ranks: the sample ranks copied, each rank's golden with one value changed so every pair differs.
for side in npu_t bench_t; do
  for r in $(seq 0 15); do
    mkdir -p "$TMP/r16/$side/step0"
    cp -r "$SAMPLES/$side/step0/rank$((r % 2))" "$TMP/r16/$side/step0/rank$r"
  done
done
for r in $(seq 0 15); do
  sed -i "0,/\"Max\": [-0-9.e]*/s//\"Max\": $r.5/" "$TMP/r16/bench_t/step0/rank$r/dump.json"
done
same_as_alone r16 -tp "$TMP/r16/npu_t/step0" -gp "$TMP/r16/bench_t/step0" --json --junit "$TMP/junit16.xml"
checks=$((checks + 1))
[ "$(ls "$TMP/r16/np4/out"/compare_result_rank*_TS.csv | wc -l)" = 16 ] || fail "r16: not 16 csv files"

# msprobe-merge over the 16 ranks' results: the reading shared, process 0 writing the same workbook.
with_np 0 "$COMPARE" -q -tp "$TMP/r16/npu_t/step0" -gp "$TMP/r16/bench_t/step0" --xlsx -o "$TMP/m16" ||
  fail "r16: compare for merge"
printf 'api:\n- Tensor.__mul__\n- Functional.linear\ncompare_index:\n- Cosine\n- MaxAbsErr\n' >"$TMP/merge.yaml"
for n in 0 2 4; do
  mkdir -p "$TMP/merge/np$n"
  with_np "$n" "$MSPROBE_BIN/msprobe-merge" -i "$TMP/m16" -o "$TMP/merge/np$n/out" -config "$TMP/merge.yaml" \
    >"$TMP/merge/np$n/run.stdout" 2>"$TMP/merge/np$n/run.err"
  echo $? >"$TMP/merge/np$n/run.rc"
  sed '/^------/,$d' "$TMP/merge/np$n/run.err" >"$TMP/merge/np$n/run.stderr" && rm "$TMP/merge/np$n/run.err"
  "$MSPROBE_ROOT/scripts/normalize_outputs.sh" "$TMP/merge/np$n"
done
for n in 2 4; do
  checks=$((checks + 1))
  diff -r "$TMP/merge/np0" "$TMP/merge/np$n" >"$TMP/merge/diff$n" || fail "merge: -np $n differs: $(head -20 "$TMP/merge/diff$n")"
done
checks=$((checks + 1))
grep -q "merged 16 rank(s)" "$TMP/merge/np4/run.stderr" || fail "merge: $(cat "$TMP/merge/np4/run.stderr")"

# -da over 8 ranks (da_bench's data: a planted diff on rank 5 during communication), xlsx marked.
if [ -x "$MSPROBE_BIN/../bench/da_bench" ]; then
  "$MSPROBE_BIN/../bench/da_bench" "$TMP/da" 10 >/dev/null 2>&1 || fail "da_bench could not generate its data"
  same_as_alone da -tp "$TMP/da/npu/step0" -gp "$TMP/da/bench/step0" -da --xlsx --fail-on-first-diff
  checks=$((checks + 1))
  [ "$(cat "$TMP/da/np4/run.rc")" = 1 ] || fail "da: exit $(cat "$TMP/da/np4/run.rc"), not the gate's 1"
  checks=$((checks + 1))
  grep -q '"rank": 5' "$TMP/da/np4/out/summary.json" || fail "da: the first diff is not on rank 5"

  # Statistics pairs larger than a process's share: each process parses its range of the target's
  # entries and the golden entries they match. One pair alone, and -da over 2 ranks (ranks 4 and 5).
  same_as_alone stats -tp "$TMP/da/npu/step0/rank5/dump.json" -gp "$TMP/da/bench/step0/rank5/dump.json" --xlsx --json
  for side in npu bench; do
    mkdir -p "$TMP/da2/$side/step0"
    cp -r "$TMP/da/$side/step0/rank4" "$TMP/da2/$side/step0/rank0"
    cp -r "$TMP/da/$side/step0/rank5" "$TMP/da2/$side/step0/rank1"
  done
  same_as_alone da2 -tp "$TMP/da2/npu/step0" -gp "$TMP/da2/bench/step0" -da --xlsx
  checks=$((checks + 1))
  grep -q '"rank": 1' "$TMP/da2/np4/out/summary.json" || fail "da2: the first diff is not on rank 1"

  # A process killed mid-run: mpirun ends the others; every file under a final name is complete (equal
  # to the same file of the complete run), none is left half-written.
  compare_run "$TMP/da_csv" 0 -tp "$TMP/da/npu/step0" -gp "$TMP/da/bench/step0" --json
  run timeout 120 mpirun -np 2 sh -c "[ \$OMPI_COMM_WORLD_RANK = 1 ] && (sleep 2; kill -9 \$\$) & \
    exec '$COMPARE' -q -tp '$TMP/da/npu/step0' -gp '$TMP/da/bench/step0' --json -o '$TMP/killed/out'"
  checks=$((checks + 1))
  [ "$CODE" -ne 0 ] || fail "killed: the run exited 0"
  mkdir -p "$TMP/killed" && check_summaries "$TMP/killed" && "$MSPROBE_ROOT/scripts/normalize_outputs.sh" "$TMP/killed"
  for f in $(cd "$TMP/killed/out" && find . -type f ! -name '*.tmp.*'); do
    checks=$((checks + 1))
    cmp -s "$TMP/killed/out/$f" "$TMP/da_csv/out/$f" || fail "killed: $f is not the complete run's"
  done
  echo "killed mid-run: $(ls "$TMP/killed/out" | wc -l) files left, all complete"
else
  echo "no bench/da_bench in this build: -da and a killed process not checked"
fi

# A malformed dump.json on rank 1: the same exit code and error line as one process, the other pairs
# compared and named in summary.json with the error, no deadlock.
cp -r "$SAMPLES" "$TMP/bad"
printf '{"task": "tensor", "data": {' >"$TMP/bad/npu_t/step0/rank1/dump.json"
compare_run "$TMP/bad/alone" 0 -tp "$TMP/bad/npu_t/step0" -gp "$TMP/bad/bench_t/step0"
for n in 2 4; do
  compare_run "$TMP/bad/np$n" "$n" -tp "$TMP/bad/npu_t/step0" -gp "$TMP/bad/bench_t/step0"
  checks=$((checks + 1))
  [ "$(cat "$TMP/bad/np$n/run.rc")" = 3 ] || fail "bad: -np $n exit $(cat "$TMP/bad/np$n/run.rc")"
  checks=$((checks + 1))
  [ "$(tail -1 "$TMP/bad/np$n/run.stderr")" = "$(cat "$TMP/bad/alone/run.stderr")" ] ||
    fail "bad: -np $n last line '$(tail -1 "$TMP/bad/np$n/run.stderr")' is not '$(cat "$TMP/bad/alone/run.stderr")'"
  checks=$((checks + 1))
  grep -q "^msprobe-compare: process [0-9] of $n: error: .*rank1/dump.json" "$TMP/bad/np$n/run.stderr" ||
    fail "bad: the failing process did not report itself: $(cat "$TMP/bad/np$n/run.stderr")"
  checks=$((checks + 1))
  [ -f "$TMP/bad/np$n/out/compare_result_rank0_TS.csv" ] || fail "bad: -np $n did not compare rank0"
  # rank0's table was written, so summary.json says why the run failed (docs/compare.md §1.5)
  grep -q '"error": ".*rank1/dump.json' "$TMP/bad/np$n/out/summary.json" ||
    fail "bad: -np $n summary.json names no error: $(cat "$TMP/bad/np$n/out/summary.json" 2>&1)"
done

# A setup failure on one process only (its golden path missing): every process stops at once.
run timeout 120 mpirun -np 2 sh -c "g='$SAMPLES/bench_t/step0'; [ \$OMPI_COMM_WORLD_RANK = 1 ] && g=$TMP/none; \
  exec '$COMPARE' -q -tp '$SAMPLES/npu_t/step0' -gp \"\$g\" -o '$TMP/setup'"
expect_code 3 "setup failure on process 1"
expect_err "msprobe-compare: error: $TMP/none: "

finish
