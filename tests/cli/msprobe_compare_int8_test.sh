#!/usr/bin/env bash
# int8 dumps (tests/data/int8) end to end: the csvs msprobe wrote for them, byte for byte, in tensor and
# statistics mode, the statistics pair also streamed (its float64 columns make it compare again in memory).
source "$(dirname "$0")/lib.sh"
cmp=$MSPROBE_BIN/msprobe-compare
int8=$MSPROBE_ROOT/tests/data/int8

for sub in tensor stat; do
  run "$cmp" -q -tp "$int8/$sub/npu/dump.json" -gp "$int8/$sub/bench/dump.json" -o "$TMP/$sub" --csv
  expect_code 0
  checks=$((checks + 1))
  cmp -s "$TMP"/$sub/compare_result_*.csv "$int8/msprobe/int8_$sub.csv" ||
    fail "$sub differs from msprobe: $(diff "$TMP"/$sub/compare_result_*.csv "$int8/msprobe/int8_$sub.csv" | head -4)"
done
grep -q '^Functional.quant_matmul.0.forward.input.0,.*,113.0,-119.0,' "$TMP"/stat/compare_result_*.csv ||
  fail "the NPU max/min column is not float64: $(sed -n 2p "$TMP"/stat/compare_result_*.csv)"
checks=$((checks + 1))
finish
