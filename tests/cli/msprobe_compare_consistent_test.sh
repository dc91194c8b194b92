#!/usr/bin/env bash
# --consistent_check --backend fsdp|megatron (verl train vs rollout, docs/compare.md §3.9) end to end on
# tests/data/verl: the csv msprobe wrote for the same dumps, byte for byte (the xlsx alone, cell for
# cell, in the unit tests), and the command-line rules.
source "$(dirname "$0")/lib.sh"
cmp=$MSPROBE_BIN/msprobe-compare
verl=$MSPROBE_ROOT/tests/data/verl

for backend in fsdp megatron; do
  for sub in tensor stat; do
    run "$cmp" -q -tp "$verl/$backend/$sub/train/dump.json" -gp "$verl/$backend/$sub/infer/dump.json" \
      --consistent_check --backend "$backend" -o "$TMP/$backend$sub" --csv
    expect_code 0
    checks=$((checks + 1))
    cmp -s "$TMP"/$backend$sub/compare_result_*.csv "$verl/msprobe/verl_${backend}_$sub.csv" ||
      fail "$backend $sub differs from msprobe: $(diff "$TMP"/$backend$sub/compare_result_*.csv "$verl/msprobe/verl_${backend}_$sub.csv" | head -5)"
  done
done
# every output of ours, and per rank from step directories
mkdir -p "$TMP/steps/train/step0" "$TMP/steps/infer/step0"
cp -r "$verl/fsdp/tensor/train" "$TMP/steps/train/step0/rank0"
cp -r "$verl/fsdp/tensor/infer" "$TMP/steps/infer/step0/rank0"
run "$cmp" -q -tp "$TMP/steps/train/step0" -gp "$TMP/steps/infer/step0" --consistent_check --backend fsdp \
  -o "$TMP/all" --csv --xlsx --json --html
expect_code 0
cmp -s "$TMP"/all/compare_result_rank0_*.csv "$verl/msprobe/verl_fsdp_tensor.csv" || fail "rank0 csv differs"
ls "$TMP"/all/compare_result_rank0_*.xlsx "$TMP"/all/compare_result_rank0_*.json "$TMP"/all/compare_report_*.html \
  >/dev/null || fail "outputs: $(ls "$TMP/all")"
checks=$((checks + 2))

# without --consistent_check the names do not meet: almost every row unmatched
run "$cmp" -q -tp "$verl/fsdp/stat/train/dump.json" -gp "$verl/fsdp/stat/infer/dump.json" -o "$TMP/plain" --csv \
  --backend fsdp
expect_code 0
[ "$(grep -c ',N/A,' "$TMP"/plain/compare_result_*.csv)" -gt 30 ] || fail "--backend alone changed the pairing"
checks=$((checks + 1))

# msprobe's message without a backend; other backends, and flags that pair rows otherwise
run "$cmp" -tp "$verl/fsdp/stat/train/dump.json" -gp "$verl/fsdp/stat/infer/dump.json" --consistent_check -o "$TMP/x"
expect_code 2
expect_one_error_line msprobe-compare
expect_err "If the 'consistent_check' parameter is specified, the 'backend' parameter must be set to 'fsdp' or 'megatron'. Current 'backend' parameter is ."
run "$cmp" -tp "$verl/fsdp/stat/train/dump.json" -gp "$verl/fsdp/stat/infer/dump.json" --consistent_check --backend ddp -o "$TMP/x"
expect_code 2
expect_err "msprobe-compare: error: --backend: ddp not in {fsdp,megatron}"
for flag in -fm -da --attribute; do
  run "$cmp" -tp "$verl/fsdp/stat/train/dump.json" -gp "$verl/fsdp/stat/infer/dump.json" --consistent_check \
    --backend fsdp $flag -o "$TMP/x"
  expect_code 2
  expect_one_error_line msprobe-compare
done
[ ! -e "$TMP/x" ] || fail "a refused run wrote $TMP/x"
checks=$((checks + 1))
finish
