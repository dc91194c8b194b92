#!/usr/bin/env bash
# msprobe-dump overflow-check and msprobe overflow_check (docs/compare.md §11) on tests/data/overflow:
# anomaly_analyze_{ns}.json as msprobe wrote it for the same dumps, msprobe's words when nothing is
# found, and one-line errors.
source "$(dirname "$0")/lib.sh"
dump=$MSPROBE_BIN/msprobe-dump
umb=$MSPROBE_BIN/msprobe
of=$MSPROBE_ROOT/tests/data/overflow

for c in pre comm post proc; do
  run "$dump" overflow-check -i "$of/$c/step0" -o "$TMP/$c"
  expect_code 0
  expect_err "first anomaly "
  checks=$((checks + 1))
  file=$(ls "$TMP"/$c/anomaly_analyze_*.json)
  [[ "$(basename "$file")" =~ ^anomaly_analyze_[0-9]{19}\.json$ ]] || fail "$c: file name $file"
  [ "$OUT" = "$file" ] || fail "$c: stdout '$OUT' is not the file"
  cmp -s "$file" "$of/msprobe/overflow_$c.json" || fail "$c differs from msprobe: $(diff "$file" "$of/msprobe/overflow_$c.json" | head -5)"
done
run "$dump" overflow-check -i "$of/comm_out/step0" -o "$TMP/comm_out"
expect_code 0
expect_err "first anomaly during communication: rank 0: Distributed.all_reduce.1.forward"

# msprobe's command line, through the umbrella
run "$umb" overflow_check -i "$of/post/step0" -o "$TMP/umb"
expect_code 0
checks=$((checks + 1))
cmp -s "$(ls "$TMP"/umb/anomaly_analyze_*.json)" "$of/msprobe/overflow_post.json" || fail "umbrella output differs"
run "$umb" overflow_check --input_path "$of/post/step0" --output_path "$TMP/umb_long" 
expect_code 0

for c in none input_bad; do
  run "$dump" overflow-check -i "$of/$c/step0" -o "$TMP/$c"
  expect_code 0
  expect_err "Cannot find any anomaly node, no need to generate analyze file."
  [ ! -e "$TMP/$c" ] || fail "$c wrote $(ls "$TMP/$c")"
  checks=$((checks + 1))
done
run "$dump" overflow-check -q -i "$of/none/step0" -o "$TMP/q"
expect_code 0
[ -z "$ERR" ] || fail "-q printed: $ERR"
checks=$((checks + 1))

run "$dump" overflow-check -i "$TMP/missing" -o "$TMP/x"
expect_code 3
expect_one_error_line msprobe-dump
mkdir -p "$TMP/bad/rank0" && cp "$of/pre/step0/rank0/dump.json" "$TMP/bad/rank0/"
run "$dump" overflow-check -i "$TMP/bad" -o "$TMP/x"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "construct.json: no such file"
run "$dump" overflow-check -o "$TMP/x"
expect_code 2
finish
