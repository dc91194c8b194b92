#!/usr/bin/env bash
# msprobe-dump consistency across MPI processes (docs/distributed.md §9), in the MPI build: with
# mpirun -np 1 and -np 3 on the 4-rank statistics dumps (tests/data/consistency/stat4), intact and with
# rank 2's all_reduce result changed in its last digit, every output, stdout, stderr and the exit code
# equal the single-process run's once timestamps are normalized (scripts/normalize_outputs.sh); a
# malformed dump.json read by process 1, and an input missing on process 2 only, end every process
# with the error and exit code of one process.
# Skips (77) in the plain build or without mpirun.
source "$(dirname "$0")/lib.sh"
require_mpi  # 3 processes on 2 cores
DUMP=$MSPROBE_BIN/msprobe-dump
data=$MSPROBE_ROOT/tests/data/consistency

# consistency_run DIR N ARGS...: one run (N=0: without mpirun) writing into DIR/out; its stdout, our
# stderr lines (mpirun's banners cut) and exit code beside it, all normalized.
consistency_run() {
  local dir=$1 n=$2; shift 2
  mkdir -p "$dir/out"
  if [ "$n" = 0 ]; then
    timeout 300 "$DUMP" consistency "$@" -o "$dir/out" >"$dir/run.stdout" 2>"$dir/run.err"
  else
    timeout 300 mpirun -np "$n" "$DUMP" consistency "$@" -o "$dir/out" >"$dir/run.stdout" 2>"$dir/run.err"
  fi
  echo $? >"$dir/run.rc"
  sed '/^------/,$d' "$dir/run.err" >"$dir/run.stderr" && rm "$dir/run.err"
  "$MSPROBE_ROOT/scripts/normalize_outputs.sh" "$dir"
}
# same_as_alone NAME RC ARGS...: the run alone exits RC; -np 1 and -np 3 write and print what it does.
same_as_alone() {
  local name=$1 rc=$2; shift 2
  consistency_run "$TMP/$name/alone" 0 "$@"
  checks=$((checks + 1))
  [ "$(cat "$TMP/$name/alone/run.rc")" = "$rc" ] || fail "$name: exit $(cat "$TMP/$name/alone/run.rc"), not $rc"
  for n in 1 3; do
    consistency_run "$TMP/$name/np$n" "$n" "$@"
    checks=$((checks + 1))
    diff -r "$TMP/$name/alone" "$TMP/$name/np$n" >"$TMP/$name/diff$n" ||
      fail "$name: -np $n differs from one process: $(head -20 "$TMP/$name/diff$n")"
  done
}

# The intact dumps: nothing found, every output alike (the page too).
same_as_alone intact 0 "$data/stat4" --html
grep -q '"first_inconsistency": null' "$TMP/intact/np3/out/summary.json" || fail "intact: first_inconsistency not null"
ls "$TMP/intact/np3/out/consistency_result_TS.xlsx.d/xl/worksheets/sheet1.xml" \
  "$TMP/intact/np3/out/consistency_report_TS.html" >/dev/null || fail "intact: no xlsx or page"
checks=$((checks + 2))

# Rank 2's result of the fourth all_reduce of step 1 changed in its last digit: named alike.
mkdir -p "$TMP/in" && cp -r "$data/stat4" "$TMP/in/stat4"
python3 "$data/edit_stat.py" "$TMP/in/stat4/step1/rank2/dump.json" Distributed.all_reduce.3.forward output 0 Norm ||
  fail "edit_stat.py"
same_as_alone one 1 "$TMP/in/stat4" --html
grep -qxF "first inconsistency: step 1, rank 2, Distributed.all_reduce.3.forward.output.0 (3 of the group's 4 ranks agree on another value)" \
  "$TMP/one/np3/run.stderr" || fail "one: -np 3 stderr: $(cat "$TMP/one/np3/run.stderr")"
checks=$((checks + 1))

# A malformed dump.json on rank 1 of step 0, which process 1 of 3 reads: the same error and exit code.
cp -r "$data/stat4" "$TMP/in/bad"
printf '{"task": "statistics", "data": {' >"$TMP/in/bad/step0/rank1/dump.json"
same_as_alone bad 3 "$TMP/in/bad"
grep -q "^msprobe-dump: error: .*/bad/step0/rank1/dump.json: " "$TMP/bad/np3/run.stderr" ||
  fail "bad: the error does not name rank1's dump.json: $(cat "$TMP/bad/np3/run.stderr")"
checks=$((checks + 1))

# The input missing on process 2 only: every process stops with its error, none hangs.
run timeout 120 mpirun -np 3 sh -c "d='$data/stat4'; [ \$OMPI_COMM_WORLD_RANK = 2 ] && d=$TMP/none; \
  exec '$DUMP' consistency -q \"\$d\" -o '$TMP/setup'"
expect_code 3 "input missing on process 2"
expect_err "msprobe-dump: error: $TMP/none: no such directory"

SUMMARIES_CHECKED=1  # consistency's summary.json is not a compare's (docs/consistency.md §5)
finish
