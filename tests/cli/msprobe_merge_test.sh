#!/usr/bin/env bash
# msprobe-merge end to end: flags (msprobe's single-dash -config too), the error contract and exit
# codes of docs/formats.md §5.7, merging what our msprobe-compare wrote, and msprobe's own 2-rank sample.
source "$(dirname "$0")/lib.sh"
merge=$MSPROBE_BIN/msprobe-merge
cmp=$MSPROBE_BIN/msprobe-compare
samples=$MSPROBE_ROOT/samples/dist2
printf 'api:\n- Distributed.all_reduce\n- Functional.linear\n' >"$TMP/merge.yaml"

run "$merge" --help
expect_code 0
expect_out "Examples:"
run "$merge" --version
expect_code 0
run "$merge" -i "$TMP" -o "$TMP/out"
expect_code 2
run "$merge" -i "$TMP/absent" -o "$TMP/out" -config "$TMP/merge.yaml"
expect_code 3
expect_one_error_line msprobe-merge
expect_err "no such directory"

# our compare's results (csv + xlsx per rank, the xlsx is read), merged with every flag spelling
run "$cmp" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/cmp" -q
expect_code 0
run "$merge" -i "$TMP/cmp" -o "$TMP/out" -config "$TMP/merge.yaml" -q
expect_code 0
[ -z "$ERR$OUT" ] || fail "-q printed: $ERR$OUT"
[ -f "$(ls "$TMP"/out/multi_ranks_compare_merge_*.xlsx)" ] || fail "no workbook written in $TMP/out"
run "$merge" --input_dir "$TMP/cmp" --output_dir "$TMP/out2" --config-path "$TMP/merge.yaml"
expect_code 0
expect_err "merged 2 rank(s)"
grep -qE "^$TMP/out2/multi_ranks_compare_merge_[0-9]{14}\.xlsx$" <<<"$OUT" || fail "no output path on stdout: $OUT"
[ -f "$OUT" ] || fail "$OUT was not written"

# config errors (docs/formats.md §5.4): exit 3 with msprobe's message
printf 'compare_index: [Max diff]\n' >"$TMP/noapi.yaml"
run "$merge" -i "$TMP/cmp" -o "$TMP/out" -config "$TMP/noapi.yaml"
expect_code 3
expect_one_error_line msprobe-merge
expect_err "The APIs required to merge data were not found."
cp "$TMP/merge.yaml" "$TMP/merge.yml"
run "$merge" -i "$TMP/cmp" -o "$TMP/out" -config "$TMP/merge.yml"
expect_code 3
expect_err "must end in .yaml"

# a wrongly named xlsx aborts; fewer than two results abort
cp -r "$TMP/cmp" "$TMP/cmp_bad"
touch "$TMP/cmp_bad/debug_compare_result_20260101000000.xlsx"
run "$merge" -i "$TMP/cmp_bad" -o "$TMP/out" -config "$TMP/merge.yaml"
expect_code 3
expect_one_error_line msprobe-merge
expect_err "Wrong compare result name: debug_compare_result_20260101000000.xlsx, please check!"
mkdir -p "$TMP/one"
cp "$TMP/cmp"/compare_result_rank0_*.csv "$TMP/one/"
run "$merge" -i "$TMP/one" -o "$TMP/out" -config "$TMP/merge.yaml"
expect_code 3
expect_err "Number of compare result is no more than 1, no need to merge."

# a damaged result is dropped on its own, with a warning naming it
mkdir -p "$TMP/dropped"
cp "$TMP/cmp"/compare_result_rank*.csv "$TMP/dropped/"
echo "garbage" >"$TMP/dropped/compare_result_rank7_20260101000000.xlsx"
run "$merge" -i "$TMP/dropped" -o "$TMP/out" -config "$TMP/merge.yaml"
expect_code 0
expect_err "msprobe-merge: warning: $TMP/dropped/compare_result_rank7_20260101000000.xlsx: cannot be read"
expect_err "merged 2 rank(s)"

# msprobe's own results (docs/formats.md §5.6 worked example): three sheets
if have_shared; then
  d=$SHARED_DATA/msprobe_samples/dist2
  run "$merge" -i "$d/cmp_stat" -o "$TMP/ms" -config "$d/merge_config.yaml"
  expect_code 0
  expect_err "merged 2 rank(s): 21 row(s) in 3 sheet(s)"
fi
finish
