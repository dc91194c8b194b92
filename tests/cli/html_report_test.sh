#!/usr/bin/env bash
# --html (docs/compare.md §10): the page is written for a plain compare, -da, --attribute and
# msprobe-dump recompute, holds every pair's rows and the run's links (html_check.py), and a missing or
# malformed construct.json leaves the tree flat with a note instead of failing the compare.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/sample_dumps_lib.sh"
command -v python3 >/dev/null || { echo "skipped: python3 not installed"; exit 77; }
cmp=$MSPROBE_BIN/msprobe-compare
check=$(dirname "$0")/html_check.py

# page_check OUTDIR [EXPECT...]: exactly one page in OUTDIR, printed among the outputs, and html_check.py passes.
page_check() {
  local pages=("$1"/compare_report_*.html)
  checks=$((checks + 1))
  [ ${#pages[@]} -eq 1 ] && [ -f "${pages[0]}" ] || fail "expected one compare_report_*.html in $1: $(ls "$1")"
  expect_out "${pages[0]}"
  local dir=$1; shift
  run python3 "$check" "${pages[0]}" "$dir/summary.json" "$@"
  expect_code 0 "html_check.py ${pages[0]}: $ERR"
}

run "$cmp" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/tensor" --html
expect_code 0 "compare --html"
page_check "$TMP/tensor"
checks=$((checks + 1))
page=$(ls "$TMP/tensor"/compare_report_*.html)
grep -qF "\"html_report\": \"$page\"" "$TMP/tensor/summary.json" || fail "summary.json does not name the page $page"

diff_dumps "$TMP/da_dumps"
run "$cmp" -tp "$TMP/da_dumps/npu" -gp "$TMP/da_dumps/bench" -o "$TMP/da" -da --html
expect_code 0 "compare -da --html"
page_check "$TMP/da" first_diff

recompute=$MSPROBE_ROOT/tests/data/recompute
run "$cmp" -tp "$recompute/target_op/step0/rank0" -gp "$recompute/golden/step0/rank0" -o "$TMP/attribute" --attribute --html
expect_code 0 "compare --attribute --html"
page_check "$TMP/attribute" first_cause
# the link names the API and the kind of its cause (docs/compare.md §10), as the stderr line does
checks=$((checks + 1))
grep -qF '"firstCauseName":"Functional.gelu.0.forward (op)"' "$TMP"/attribute/compare_report_*.html \
  || fail "first cause link: $(grep -o '"firstCause[^,]*' "$TMP"/attribute/compare_report_*.html)"

run "$MSPROBE_BIN/msprobe-dump" recompute "$recompute/target_op/step0/rank0" -o "$TMP/recompute" --html
expect_code 1 "recompute --html (an op exceeds its tolerance)"
page_check "$TMP/recompute" recompute

# construct.json malformed on rank0 and absent on rank1: the compare succeeds, the tree is flat.
statistics_dumps "$TMP/bad_tree"
echo '{"Functional.linear.0.forward": ' >"$TMP/bad_tree/npu/rank0/construct.json"
rm -f "$TMP/bad_tree/npu/rank1/construct.json"
run "$cmp" -tp "$TMP/bad_tree/npu" -gp "$TMP/bad_tree/bench" -o "$TMP/bad" --html
expect_code 0 "compare --html with a bad construct.json"
page_check "$TMP/bad" flat_tree

# Without --html, no page.
run "$cmp" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/plain" --csv
expect_code 0 "compare without --html"
checks=$((checks + 1))
! ls "$TMP/plain"/compare_report_*.html >/dev/null 2>&1 || fail "a page was written without --html"
finish
