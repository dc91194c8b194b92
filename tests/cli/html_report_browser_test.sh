#!/usr/bin/env bash
# The HTML report in a real browser (docs/compare.md §10): Debian's Chromium, headless, driven by
# playwright-core (installed by the build's npm ci from report/package-lock.json), opens a two-rank
# compare's page from disk and works it as an engineer would (tests/browser/report_page_check.js).
# Any console error or request fails it. The screenshot is kept in ci-artifacts/ (MSPROBE_ARTIFACTS
# overrides). Skipped without Chromium (.ci/run installs it; scripts/deps.sh does not).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/sample_dumps_lib.sh"
source "$(dirname "$0")/browser_lib.sh"

run "$MSPROBE_BIN/msprobe-compare" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/out" --html -q
expect_code 0 "compare --html"
check_page report_page_check.js "$TMP"/out/compare_report_*.html "$TMP/out/summary.json" "$artifacts/html_report.png"
expect_code 0 "report_page_check.js: $ERR"
checks=$((checks + 1))
[ -s "$artifacts/html_report.png" ] || fail "no screenshot in $artifacts"
finish
