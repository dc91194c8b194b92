#!/usr/bin/env bash
# The trend page in a real browser (docs/trend.md §13): Debian's Chromium, headless and driven by
# playwright-core (installed by the build's npm ci from report/package-lock.json), opens the page of a
# four-rank, twelve-step trend database from disk and works it (tests/browser/trend_page_check.js).
# Any console error or request fails it. The screenshot is kept in ci-artifacts/ (MSPROBE_ARTIFACTS
# overrides). Skipped without Chromium (.ci/run installs it; scripts/deps.sh does not).
source "$(dirname "$0")/lib.sh"
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "skipped: $chromium not installed (scripts/apt_install.sh chromium)"; exit 77; }
node_modules=$MSPROBE_BIN/../report/node_modules
[ -d "$node_modules/playwright-core" ] || fail "no playwright-core in $node_modules: the build runs npm ci there"
artifacts=${MSPROBE_ARTIFACTS:-$MSPROBE_ROOT/ci-artifacts}
mkdir -p "$artifacts"

python3 "$MSPROBE_ROOT/tests/data/trend/gen_trend_dumps.py" "$TMP/dumps" || fail "gen_trend_dumps.py"
run "$MSPROBE_BIN/msprobe-dump" data2db --db "$TMP/db" --data "$TMP/dumps/g_multi" --html -q
expect_code 0 "data2db --html"
run env NODE_PATH="$node_modules" CHROMIUM="$chromium" timeout 300 node "$MSPROBE_ROOT/tests/browser/trend_page_check.js" \
  "$TMP/db/dump_data.trend.html" 2784 "$artifacts/trend_page.png"
expect_code 0 "trend_page_check.js: $ERR"
checks=$((checks + 1))
[ -s "$artifacts/trend_page.png" ] || fail "no screenshot in $artifacts"
finish
