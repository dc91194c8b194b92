#!/usr/bin/env bash
# The consistency page in a real browser (docs/consistency.md §5): Debian's Chromium, headless and
# driven by playwright-core, opens the page of the 4-rank dumps with one all_reduce result corrupted
# and works it (tests/browser/consistency_page_check.js). Any console error or request fails it. The
# screenshot is kept in ci-artifacts/. Skipped without Chromium.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/browser_lib.sh"
data=$MSPROBE_ROOT/tests/data/consistency

cp -r "$data/stat4" "$TMP/stat4"
python3 "$data/edit_stat.py" "$TMP/stat4/step1/rank2/dump.json" Distributed.all_reduce.3.forward output 0 Norm || fail "edit"
run "$MSPROBE_BIN/msprobe-dump" consistency "$TMP/stat4" -o "$TMP/out" --html -q
expect_code 1 "consistency --html"
check_page consistency_page_check.js "$(ls "$TMP"/out/consistency_report_*.html)" "$TMP/out/summary.json" \
  "$artifacts/consistency_page.png"
expect_code 0 "consistency_page_check.js: $ERR"
[ -s "$artifacts/consistency_page.png" ] || fail "no screenshot in $artifacts"
checks=$((checks + 1))

# A dump where no check can run (two ranks of an L0 dump): the page says "nothing checked", not a pass.
run "$MSPROBE_BIN/msprobe-dump" consistency "$MSPROBE_ROOT/tests/data/trend/real/r_l0_stat" -o "$TMP/nothing" --html -q
expect_code 1 "consistency --html, nothing checked"
check_page consistency_page_check.js "$(ls "$TMP"/nothing/consistency_report_*.html)" "$TMP/nothing/summary.json" \
  "$artifacts/consistency_page_nothing_checked.png"
expect_code 0 "consistency_page_check.js, nothing checked: $ERR"
finish
