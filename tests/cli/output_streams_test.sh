#!/usr/bin/env bash
# One stream convention in all five programs (README, "Output streams"): stdout holds the paths of the
# files written and nothing else; the summary line, warnings and errors go to stderr; -q silences the
# path listing and the summary line but not warnings or errors.
source "$(dirname "$0")/lib.sh"
samples=$MSPROBE_ROOT/samples/dist2
data=$MSPROBE_ROOT/tests/data

# Every stdout line is an existing file or directory.
expect_only_paths() {
  checks=$((checks + 1))
  [ -n "$OUT" ] || fail "$1: nothing on stdout"
  while IFS= read -r line; do
    [ -e "$line" ] || fail "$1: stdout line is not a path written: $line"
  done <<<"$OUT"
}
expect_quiet() {  # nothing on either stream
  checks=$((checks + 1))
  [ -z "$OUT$ERR" ] || fail "$1 -q printed: stdout: $OUT; stderr: $ERR"
}

# msprobe-compare
run "$MSPROBE_BIN/msprobe-compare" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/cmp"
expect_code 0
expect_only_paths compare
expect_err "compared 2 pair(s): "
run "$MSPROBE_BIN/msprobe-compare" -q -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/cmp_q"
expect_code 0
expect_quiet compare

# msprobe-merge
printf 'api:\n- Functional.linear\n' >"$TMP/merge.yaml"
run "$MSPROBE_BIN/msprobe-merge" -i "$TMP/cmp" -o "$TMP/merged" -config "$TMP/merge.yaml"
expect_code 0
expect_only_paths merge
expect_err "merged 2 rank(s): "
run "$MSPROBE_BIN/msprobe-merge" -q -i "$TMP/cmp" -o "$TMP/merged_q" -config "$TMP/merge.yaml"
expect_code 0
expect_quiet merge

# msprobe-dump recompute
run "$MSPROBE_BIN/msprobe-dump" recompute "$data/recompute/golden/step0/rank0" -o "$TMP/rec"
expect_code 0
expect_only_paths recompute
expect_err "7 API call(s): 7 ok, 0 exceed their tolerance, 0 unsupported"
run "$MSPROBE_BIN/msprobe-dump" -q recompute "$data/recompute/golden/step0/rank0" -o "$TMP/rec_q"
expect_code 0
expect_quiet recompute

# msprobe-dump verify writes no file: nothing on stdout, its summary on stderr
run "$MSPROBE_BIN/msprobe-dump" verify "$samples/npu_t/step0"
expect_code 0
checks=$((checks + 1))
[ -z "$OUT" ] || fail "verify printed on stdout: $OUT"
expect_err "OK: 2 json file(s), "
run "$MSPROBE_BIN/msprobe-dump" -q verify "$samples/npu_t/step0"
expect_code 0
expect_quiet verify

# msprobe-convert (a .bin dump of tests/data/bin, written by its generator as the runtime writes them)
bin=$data/bin/cases/Add.Default_Add-op1.3.2.1735011096403740
run "$MSPROBE_BIN/msprobe-convert" -d "$bin" -o "$TMP/conv"
expect_code 0
expect_only_paths convert
expect_err " tensors written, "
run "$MSPROBE_BIN/msprobe-convert" -q -d "$bin" -o "$TMP/conv_q"
expect_code 0
expect_quiet convert
finish
