# What the browser tests share (html_report_, trend_page_ and consistency_page_browser_test.sh); sourced after
# lib.sh. Skips the test (exit 77) without Debian's Chromium (.ci/run installs it; scripts/deps.sh does
# not); sets $chromium, $node_modules (playwright-core, from the build's npm ci) and $artifacts
# (ci-artifacts/, or MSPROBE_ARTIFACTS), where the screenshots are kept.
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "skipped: $chromium not installed (scripts/apt_install.sh chromium)"; exit 77; }
node_modules=$MSPROBE_BIN/../report/node_modules
[ -d "$node_modules/playwright-core" ] || fail "no playwright-core in $node_modules: the build runs npm ci there"
artifacts=${MSPROBE_ARTIFACTS:-$MSPROBE_ROOT/ci-artifacts}
mkdir -p "$artifacts"

# check_page SCRIPT ARGS...: runs tests/browser/SCRIPT in node with Chromium.
check_page() {
  run env NODE_PATH="$node_modules" CHROMIUM="$chromium" timeout 300 node "$MSPROBE_ROOT/tests/browser/$1" "${@:2}"
}
