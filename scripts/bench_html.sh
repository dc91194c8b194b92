#!/usr/bin/env bash
# The HTML report's two budgets (docs/compare.md §10): what --html adds to a 1 M-row statistics compare
# (compare_stats_bench: csv, csv + xlsx, csv + html on a generated pair of about 300 MB each), and how
# long its page takes to open in Debian's Chromium (bench/html_page_open.js, three runs). Not run by CI.
# Usage: scripts/bench_html.sh [DATA_DIR (default /tmp/msprobe_bench_html)] [MB_PER_FILE (default 300)]
# BUILD_DIR overrides the build tree (default build-bench).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench}
dir=${1:-/tmp/msprobe_bench_html}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMSPROBE_BENCH=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target compare_stats_bench msprobe_compare
"$build/bench/compare_stats_bench" "$dir" "${2:-300}"
NODE_PATH="$build/report/node_modules" node "$root/bench/html_page_open.js" "$dir"/out_html/compare_report_*.html 3
