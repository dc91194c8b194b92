#!/usr/bin/env bash
# msprobe-compare triage: -da against msprobe's own -da outputs (byte for byte), the CI gates'
# exit codes and verdict line, summary.json, and the JUnit report validated against its XSD.
source "$(dirname "$0")/lib.sh"
cmp=$MSPROBE_BIN/msprobe-compare
samples=$MSPROBE_ROOT/samples/dist2
xsd=$MSPROBE_ROOT/tests/data/triage/junit.xsd

# usage errors
run "$cmp" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" --fail-on-first-diff
expect_code 2
expect_one_error_line msprobe-compare
run "$cmp" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" --fail-on sometimes
expect_code 2

# a dump against itself: nothing fails, whatever the gate
run "$cmp" -tp "$samples/npu_t/step0" -gp "$samples/npu_t/step0" -o "$TMP/self" --csv --fail-on warning -q
expect_code 0
[ -f "$TMP/self/summary.json" ] || fail "no summary.json: $(ls "$TMP/self")"
grep -q '"warning": 0' "$TMP/self/summary.json" || fail "summary counts: $(head -20 "$TMP/self/summary.json")"
checks=$((checks + 1))

# -da on a json pair (beyond msprobe): compare_result_{ts}.json, no diff in a dump against itself
run "$cmp" -tp "$samples/npu_t/step0/rank0/dump.json" -gp "$samples/npu_t/step0/rank0/dump.json" -o "$TMP/pair" -da --fail-on-first-diff
expect_code 0
expect_err "Cannot find any diff node, no need to generate analyze file."
ls "$TMP/pair" | grep -qE '^compare_result_[0-9]{14}\.json$' || fail "pair json: $(ls "$TMP/pair")"
checks=$((checks + 1))

# JUnit, validated against our XSD
if command -v xmllint >/dev/null; then
  run "$cmp" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/j" --csv --junit "$TMP/j/report.xml" -q
  expect_code 0
  run xmllint --noout --schema "$xsd" "$TMP/j/report.xml"
  expect_code 0 "junit report vs junit.xsd"
  grep -q '<testsuite name="rank1"' "$TMP/j/report.xml" || fail "no rank1 suite"
  checks=$((checks + 1))
fi

if have_shared; then
  da=$SHARED_DATA/msprobe_samples/dist2_da
  dist2=$SHARED_DATA/msprobe_samples/dist2
  # first diff before communication, on both ranks: msprobe's files byte for byte
  run "$cmp" -tp "$da/target/step0" -gp "$da/golden/step0" -o "$TMP/da" -da --xlsx
  expect_code 0
  expect_err "first diff before communication: rank 0: Functional.layer_norm.0.forward"
  for rank in rank0 rank1; do
    gzip -dc "$da"/da/compare_result_${rank}_*.json.gz > "$TMP/theirs_$rank.json"
    cmp -s "$TMP"/da/compare_result_${rank}_*.json "$TMP/theirs_$rank.json" || fail "$rank json differs from msprobe"
    ls "$TMP/da" | grep -qE "^compare_result_${rank}_[0-9]{14}\.xlsx$" || fail "no xlsx for $rank: $(ls "$TMP/da")"
    checks=$((checks + 2))
  done
  cmp -s "$TMP"/da/diff_analyze_*.json "$da"/da/diff_analyze_*.json || fail "diff_analyze json differs from msprobe"
  checks=$((checks + 1))
  grep -q '"stage": "before communication"' "$TMP/da/summary.json" || fail "summary first_diff"
  checks=$((checks + 1))

  # the gates: exit 1 and one verdict line naming the row
  run "$cmp" -tp "$da/target/step0" -gp "$da/golden/step0" -o "$TMP/g1" -da --fail-on-first-diff -q
  expect_code 1
  expect_err "gate failed (--fail-on-first-diff)"
  expect_err "Functional.layer_norm.0.forward.output.0"
  run "$cmp" -tp "$da/target/step0" -gp "$da/golden/step0" -o "$TMP/g2" --csv --fail-on error -q
  expect_code 1
  expect_err "gate failed (--fail-on error)"
  expect_err "compare_result_rank0_"
  expect_err 'error: The dtype of NPU and Bench are inconsistent.'

  # no diff: msprobe's message, no analyze file, its per-rank json byte for byte
  for case in stat t; do
    run "$cmp" -tp "$dist2/npu_$case/step0" -gp "$dist2/bench_$case/step0" -o "$TMP/nd_$case" -da --fail-on-first-diff
    expect_code 0
    expect_err "Cannot find any diff node, no need to generate analyze file."
    ! ls "$TMP/nd_$case" | grep -q '^diff_analyze_' || fail "an analyze file was written for $case"
    for rank in rank0 rank1; do
      cmp -s "$TMP"/nd_$case/compare_result_${rank}_*.json "$dist2"/da_$case/compare_result_${rank}_*.json \
        || fail "da_$case $rank differs from msprobe"
      checks=$((checks + 1))
    done
  done
fi
finish
