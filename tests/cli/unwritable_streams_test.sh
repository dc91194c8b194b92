#!/usr/bin/env bash
# A stream that cannot be written (stderr or stdout on a full disk, /dev/full, or closed) is no crash:
# every program keeps its exit code when only its reports on stderr are lost, and fails (3, one line)
# when output it printed on stdout was lost. Before, fmt's print threw from the error path and every
# program aborted (134).
source "$(dirname "$0")/lib.sh"
[ -w /dev/full ] || { echo "no /dev/full"; exit 77; }
bin=$MSPROBE_BIN
samples=$MSPROBE_ROOT/samples/dist2
npy=$MSPROBE_ROOT/tests/data/ops/cases/exp/expected.0.npy

# run_streams CODE CMD...: CMD exits CODE with stderr on /dev/full and with stderr closed.
run_streams() {
  local want=$1; shift
  "$@" >/dev/null 2>/dev/full; CODE=$?; ERR="(stderr on /dev/full)"; OUT=""
  expect_code "$want" "$*"
  "$@" >/dev/null 2>&-; CODE=$?; ERR="(stderr closed)"
  expect_code "$want" "$*"
}

# input errors and usage errors keep their codes
run_streams 3 "$bin/msprobe-compare" -tp "$TMP/none" -gp "$TMP/none" -o "$TMP/out"
run_streams 3 "$bin/msprobe-dump" stats "$TMP/none.npy"
run_streams 3 "$bin/msprobe-convert" -d "$TMP/none" -o "$TMP/out"
run_streams 2 "$bin/msprobe-merge"
run_streams 2 "$bin/msprobe" stats

# a compare that succeeds writes its files and exits 0 though its summary line is lost (each run in a
# folder of its own: two runs a second apart in one folder write four csv files)
for stderr_is in full closed; do
  out=$TMP/done_$stderr_is
  if [ "$stderr_is" = full ]; then
    "$bin/msprobe-compare" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$out" >/dev/null 2>/dev/full
  else
    "$bin/msprobe-compare" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$out" >/dev/null 2>&-
  fi
  CODE=$?; ERR="(stderr $stderr_is)"; OUT=""
  expect_code 0 "a compare with stderr $stderr_is"
  checks=$((checks + 1))
  [ "$(ls "$out"/compare_result_rank*.csv | wc -l)" -eq 2 ] && [ -f "$out/summary.json" ] \
    || fail "the compare with stderr $stderr_is did not write its files: $(ls "$out")"
done

# output printed on stdout and lost fails the run
"$bin/msprobe-dump" stats --json "$npy" >/dev/full 2>"$TMP/.stderr"; CODE=$?; ERR=$(cat "$TMP/.stderr")
expect_code 3
expect_err_line "msprobe-dump: error: standard output: cannot write: No space left on device: is it a full disk or a closed pipe?"
"$bin/msprobe-dump" verify --json "$samples/npu_t/step0/rank0" >/dev/full 2>"$TMP/.stderr"; CODE=$?; ERR=$(cat "$TMP/.stderr")
expect_code 3
expect_one_error_line msprobe-dump
# and the same run on a writable stdout is done
run "$bin/msprobe-dump" stats --json "$npy"
expect_code 0
expect_out '"dtype":"float64","shape":[8]'
finish
