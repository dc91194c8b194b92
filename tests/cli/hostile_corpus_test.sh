#!/usr/bin/env bash
# The hostile-input campaign's corpus (tests/hostile/), replayed against every program: each case's
# exit code, its single error line, inputs untouched, no output left by a failed run. Known defects
# are reported by the runner without failing the test.
: "${MSPROBE_BIN:?}" "${MSPROBE_ROOT:?}"
exec bash "$MSPROBE_ROOT/tests/hostile/run_corpus.sh" "$MSPROBE_BIN"
