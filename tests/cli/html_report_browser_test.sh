#!/usr/bin/env bash
# The HTML report in a real browser (docs/compare.md §10): Debian's Chromium, headless, driven by
# playwright-core (installed by the build's npm ci from report/package-lock.json), opens a two-rank
# compare's page from disk and works it as an engineer would (tests/browser/report_page_check.js),
# an overflow_check anomaly among the header's links.
# Any console error or request fails it. The screenshot is kept in ci-artifacts/ (MSPROBE_ARTIFACTS
# overrides). Skipped without Chromium (.ci/run installs it; scripts/deps.sh does not).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/sample_dumps_lib.sh"
source "$(dirname "$0")/browser_lib.sh"

# an overflow_check analyze file of the same target dump in the output directory: the page links its
# anomalies (docs/compare.md §11)
mkdir -p "$TMP/out"
cp "$MSPROBE_ROOT/tests/data/overflow/msprobe/overflow_pre_both.json" "$TMP/out/anomaly_analyze_1.json"
run "$MSPROBE_BIN/msprobe-compare" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/out" --html -q
expect_code 0 "compare --html"
check_page report_page_check.js "$TMP"/out/compare_report_*.html "$TMP/out/summary.json" "$artifacts/html_report.png" \
  Tensor.__mul__.0.forward
expect_code 0 "report_page_check.js: $ERR"
checks=$((checks + 1))
[ -s "$artifacts/html_report.png" ] || fail "no screenshot in $artifacts"
finish
