#!/usr/bin/env bash
# The trend page in a real browser (docs/trend.md §13): Debian's Chromium, headless and driven by
# playwright-core (installed by the build's npm ci from report/package-lock.json), opens the page of a
# four-rank, twelve-step trend database from disk and works it (tests/browser/trend_page_check.js).
# Any console error or request fails it. The screenshot is kept in ci-artifacts/ (MSPROBE_ARTIFACTS
# overrides). Skipped without Chromium (.ci/run installs it; scripts/deps.sh does not).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/browser_lib.sh"

python3 "$MSPROBE_ROOT/tests/data/trend/gen_trend_dumps.py" "$TMP/dumps" || fail "gen_trend_dumps.py"
run "$MSPROBE_BIN/msprobe-dump" data2db --db "$TMP/db" --data "$TMP/dumps/g_multi" --html -q
expect_code 0 "data2db --html"
check_page trend_page_check.js "$TMP/db/dump_data.trend.html" 2784 "$artifacts/trend_page.png"
expect_code 0 "trend_page_check.js: $ERR"
checks=$((checks + 1))
[ -s "$artifacts/trend_page.png" ] || fail "no screenshot in $artifacts"
finish
