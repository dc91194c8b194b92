#!/usr/bin/env bash
# Our workbooks read in a real spreadsheet application: LibreOffice exports every sheet of each kind of
# workbook (compare in tensor, statistics and md5 mode, -da, --attribute, merge, recompute, consistency) to csv, and every cell must read
# back as the program wrote it (its own csv of the same run; for merge, the ranks' csvs).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/libreoffice_lib.sh"
check=$(dirname "$0")/sheet_check.py
# one csv per sheet (last token -1: every sheet to FILE-SHEET.csv); cells as stored, not as formatted
csv_filter='csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1'

# sheet_check ARGS...: runs sheet_check.py, one passed check per call.
sheet_check() {
  run python3 "$check" "$@"
  expect_code 0 "sheet_check.py $1"
}

# check_compare_book BOOK LABEL: every data sheet against the run's csv, the summary's counts against
# its Result column.
check_compare_book() {
  local book=$1 stem dir=$TMP/lo_$2 data_sheets=() sheet
  stem=$(basename "$book" .xlsx)
  lo_convert "$csv_filter" "$dir" "$book"
  while read -r sheet; do
    [ "$sheet" = summary ] || data_sheets+=("$dir/$stem-$sheet.csv")
  done < <(sheet_names "$book")
  sheet_check data "${book%.xlsx}.csv" "${data_sheets[@]}"
  sheet_check summary "${book%.xlsx}.csv" "$dir/$stem-summary.csv"
}

for kind in tensor statistics md5 da; do
  compare_workbooks "$kind" "$TMP/$kind"
  for book in "$TMP/$kind"/compare_result_rank*.xlsx; do check_compare_book "$book" "$kind"; done
done

# --attribute's three added columns, and msprobe-dump recompute's own table
recompute=$MSPROBE_ROOT/tests/data/recompute
run "$cmp" -tp "$recompute/target_op/step0/rank0" -gp "$recompute/golden/step0/rank0" -o "$TMP/attribute" -q --attribute
expect_code 0 "compare --attribute"
check_compare_book "$(ls "$TMP"/attribute/compare_result_*.xlsx)" attribute
run "$MSPROBE_BIN/msprobe-dump" recompute "$recompute/target_op/step0/rank0" -o "$TMP/recompute" -q
expect_code 1 "recompute"
book=$(ls "$TMP"/recompute/recompute_result_*.xlsx)
lo_convert "$csv_filter" "$TMP/lo_recompute" "$book"
sheet_check data "${book%.xlsx}.csv" "$TMP/lo_recompute/$(basename "$book" .xlsx)-Sheet1.csv"

# msprobe-dump consistency's findings (the intact 4-rank dumps: suspects only) against its csv
run "$MSPROBE_BIN/msprobe-dump" consistency "$MSPROBE_ROOT/tests/data/consistency/stat4" -o "$TMP/consistency" -q
expect_code 0 "consistency"
book=$(ls "$TMP"/consistency/consistency_result_*.xlsx)
lo_convert "$csv_filter" "$TMP/lo_consistency" "$book"
sheet_check data "${book%.xlsx}.csv" "$TMP/lo_consistency/$(basename "$book" .xlsx)-consistency.csv"

# merge: the tensor-mode results above, every default index (one sheet each)
apis=Distributed.all_reduce,Functional.linear
{ echo "api:"; printf -- '- %s\n' ${apis//,/ }; } >"$TMP/merge.yaml"
run "$MSPROBE_BIN/msprobe-merge" -i "$TMP/tensor" -o "$TMP/merge" -config "$TMP/merge.yaml"
expect_code 0 "merge"
expect_err "merged 2 rank(s): 24 row(s) in 7 sheet(s)"
book=$OUT
lo_convert "$csv_filter" "$TMP/lo_merge" "$book"
[ "$(sheet_names "$book" | wc -l)" -eq 7 ] || fail "merged workbook sheets: $(sheet_names "$book")"
while read -r index; do
  sheet_check merge "$apis" "$TMP/lo_merge/$(basename "$book" .xlsx)-$index.csv" "$index" \
    "$TMP"/tensor/compare_result_rank*.csv
done < <(sheet_names "$book")
finish
