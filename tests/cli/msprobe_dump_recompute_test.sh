#!/usr/bin/env bash
# msprobe-dump recompute end to end (docs/ops.md §6) on the test dumps of tests/data/recompute:
# help, exit codes 0/1/3, the summary and first-exceeding lines, -q, outputs, inputs left untouched.
source "$(dirname "$0")/lib.sh"
dump=$MSPROBE_BIN/msprobe-dump
data=$MSPROBE_ROOT/tests/data/recompute
inputs_sum() { (cd "$data" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum); }
before=$(inputs_sum)

# No recompute_result_* file and no summary.json under DIR (after a failed run).
expect_no_results() {
  checks=$((checks + 1))
  local left
  left=$(find "$1" -name 'recompute_result_*' -o -name 'summary.json' 2>/dev/null)
  [ -z "$left" ] || fail "files left after a failure: $left"
}

# Under MSPROBE_ISA (the cli.msprobe_dump_recompute_test.<isa> runs, docs/ops.md §4): everything below on
# that copy of the float64 GEMM, or a skip when this CPU lacks it.
if [ -n "${MSPROBE_ISA:-}" ]; then
  run "$dump" recompute --help
  grep -q "MSPROBE_ISA: this CPU lacks" <<<"$OUT" && { echo "skipped: $OUT"; exit 77; }
  expect_out "Float64 GEMMs run on $MSPROBE_ISA (this CPU runs "
else
  # A set not built in is refused before any work (exit 2), naming those that are.
  MSPROBE_ISA=avx9 run "$dump" recompute "$data/golden/step0/rank0" -o "$TMP/isa"
  expect_code 2
  expect_one_error_line msprobe-dump
  expect_err "msprobe-dump: error: MSPROBE_ISA: no instruction set 'avx9' in this build (it has "
  expect_err "); unset MSPROBE_ISA or name one of those; run msprobe-dump --help for usage"
  expect_no_results "$TMP/isa"
fi

run "$dump" --help
expect_code 0
expect_out "recompute"
expect_out "msprobe-dump recompute"
run "$dump" recompute --help
expect_code 0
expect_out "A dump.json, rank dir, step dir or dump root"
expect_out "Float64 GEMMs run on "
run "$dump" recompute
expect_code 2

# golden: every call within its tolerance → exit 0, both tables and summary.json listed
run "$dump" recompute "$data/golden/step0/rank0" -o "$TMP/golden"
expect_code 0
expect_err "7 API call(s): 7 ok, 0 exceed their tolerance, 0 unsupported, 0 unreadable"
expect_out "$TMP/golden/summary.json"
checks=$((checks + 1))
! grep -q "first exceeding" <<<"$ERR" || fail "golden printed a first exceeding: $OUT"
checks=$((checks + 1))
[ "$(ls "$TMP/golden" | grep -cE '^recompute_result_[0-9]{14}\.(csv|xlsx)$')" -eq 2 ] || fail "golden outputs: $(ls "$TMP/golden")"
checks=$((checks + 1))
grep -q '"first_exceeding": null' "$TMP/golden/summary.json" || fail "golden summary: $(cat "$TMP/golden/summary.json")"
csv=$(ls "$TMP"/golden/recompute_result_*.csv)
checks=$((checks + 1))
[ "$(head -1 "$csv")" = "API Name,Op,Dtype,Output,Supported,MaxAbsErr,MaxRelativeErr,Cosine,AccumulationLength,Tolerance,Verdict,Reason" ] ||
  fail "csv header: $(head -1 "$csv")"
checks=$((checks + 1))
[ "$(tail -n +2 "$csv" | wc -l)" -eq 7 ] || fail "csv rows: $(cat "$csv")"

# target_input: a perturbed weight, every op still right on what it received → exit 0
run "$dump" recompute "$data/target_input/step0" -o "$TMP/target_input"
expect_code 0
expect_err "7 API call(s): 7 ok"

# target_op: the tanh gelu is the one call beyond its tolerance → exit 1, named
run "$dump" recompute "$data/target_op/step0/rank0/dump.json" -o "$TMP/target_op"
expect_code 1
expect_err "7 API call(s): 6 ok, 1 exceed their tolerance, 0 unsupported, 0 unreadable"
expect_err "first exceeding: Functional.gelu.0.forward ($data/target_op/step0/rank0/dump.json)"
checks=$((checks + 1))
grep -q '"api": "Functional.gelu.0.forward"' "$TMP/target_op/summary.json" || fail "summary: $(cat "$TMP/target_op/summary.json")"
checks=$((checks + 1))
grep -q '^Functional.gelu.0.forward,Functional.gelu,torch.float32,output.0,True,.*,exceeds,$' \
  "$TMP"/target_op/recompute_result_*.csv || fail "gelu row: $(cat "$TMP"/target_op/recompute_result_*.csv)"

# -q: only the first-exceeding line (and nothing at all when none exceeds)
run "$dump" -q recompute "$data/target_op" -o "$TMP/quiet"
expect_code 1
checks=$((checks + 1))
[ "$ERR" = "first exceeding: Functional.gelu.0.forward ($data/target_op/step0/rank0/dump.json)" ] || fail "-q printed: $ERR"
checks=$((checks + 1))
[ -z "$OUT" ] || fail "-q wrote to stdout: $OUT"
run "$dump" -q recompute "$data/golden" -o "$TMP/quiet_golden"
expect_code 0
checks=$((checks + 1))
[ -z "$OUT$ERR" ] || fail "-q printed: $OUT$ERR"

# the default output directory is ./output
(cd "$TMP" && mkdir -p cwd && cd cwd && "$dump" -q recompute "$data/golden/step0/rank0" >/dev/null 2>&1)
checks=$((checks + 1))
[ -f "$TMP/cwd/output/summary.json" ] || fail "no ./output/summary.json"

# input errors: exit 3, one error line naming the file, nothing written under the final names
run "$dump" recompute "$TMP/no_such_dump" -o "$TMP/err1"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "$TMP/no_such_dump"
expect_no_results "$TMP/err1"

mkdir -p "$TMP/garbage/step0/rank0"
printf 'this is not json' > "$TMP/garbage/step0/rank0/dump.json"
run "$dump" recompute "$TMP/garbage/step0/rank0" -o "$TMP/err2"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "dump.json"
expect_no_results "$TMP/err2"

printf 'x' > "$TMP/a_file"
run "$dump" recompute "$data/golden/step0/rank0" -o "$TMP/a_file"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "$TMP/a_file"
checks=$((checks + 1))
[ "$(cat "$TMP/a_file")" = "x" ] || fail "the file given as -o was changed"
expect_no_results "$TMP"/a_file

# a tensor file missing: that call is unreadable, not unsupported; the others still checked and every
# output written, but a call not checked never passes: exit 1, with the reason even under -q
cp -r "$data/golden/step0/rank0" "$TMP/missing" && chmod -R u+w "$TMP/missing"
gone="$TMP/missing/dump_tensor_data/Functional.gelu.0.forward.output.0.pt"
rm "$gone"
run "$dump" recompute "$TMP/missing" -o "$TMP/missing_out"
expect_code 1
expect_err "7 API call(s): 6 ok, 0 exceed their tolerance, 0 unsupported, 1 unreadable"
expect_err "1 call(s) not checked: a tensor could not be read (first: $gone: "
checks=$((checks + 1))
grep -q "^Functional.gelu.0.forward,Functional.gelu,N/A,N/A,True,N/A,N/A,N/A,N/A,N/A,unreadable,$gone: " \
  "$TMP"/missing_out/recompute_result_*.csv || fail "missing row: $(cat "$TMP"/missing_out/recompute_result_*.csv)"
checks=$((checks + 1))
grep -q '"unreadable": 1,' "$TMP/missing_out/summary.json" || fail "summary: $(cat "$TMP/missing_out/summary.json")"
checks=$((checks + 1))
[ "$(ls "$TMP/missing_out" | grep -cE '^recompute_result_[0-9]{14}\.(csv|xlsx)$')" -eq 2 ] || fail "outputs: $(ls "$TMP/missing_out")"
run "$dump" -q recompute "$TMP/missing" -o "$TMP/missing_quiet"
expect_code 1
checks=$((checks + 1))
[[ "$ERR" == "1 call(s) not checked: a tensor could not be read (first: $gone: "* ]] || fail "-q printed: $ERR"

# the inputs are never modified
checks=$((checks + 1))
[ "$(inputs_sum)" = "$before" ] || fail "tests/data/recompute changed"
finish
