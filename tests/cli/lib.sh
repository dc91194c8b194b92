# Assertions for the end-to-end CLI tests. Each test script sources this, runs the programs from
# $MSPROBE_BIN and calls `finish` at the end; the first failed check exits non-zero.
set -uo pipefail
: "${MSPROBE_BIN:?}" "${MSPROBE_ROOT:?}"
SHARED_DATA="${MSPROBE_SHARED:-$MSPROBE_ROOT/../shared}/data"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
checks=0

fail() { echo "FAIL: $*" >&2; exit 1; }

# run CMD...: runs it, keeping stdout in $OUT, stderr in $ERR and the exit code in $CODE.
run() {
  "$@" >"$TMP/.stdout" 2>"$TMP/.stderr"
  CODE=$?
  OUT=$(cat "$TMP/.stdout")
  ERR=$(cat "$TMP/.stderr")
}
expect_code() {
  checks=$((checks + 1))
  [ "$CODE" -eq "$1" ] || fail "expected exit $1, got $CODE${2:+ ($2)}; stderr: $ERR; stdout: ${OUT:0:400}"
}
expect_out() {
  checks=$((checks + 1))
  grep -qF -- "$1" <<<"$OUT" || fail "stdout lacks '$1': ${OUT:0:600}"
}
expect_err() {
  checks=$((checks + 1))
  grep -qF -- "$1" <<<"$ERR" || fail "stderr lacks '$1': $ERR"
}
# The error contract: exactly one line on stderr, prefixed with the program name.
expect_one_error_line() {
  checks=$((checks + 1))
  [ "$(printf '%s\n' "$ERR" | wc -l)" -eq 1 ] || fail "expected one stderr line, got: $ERR"
  grep -q "^$1: error: " <<<"$ERR" || fail "stderr does not start with '$1: error: ': $ERR"
}
# The whole of stderr is the one line $1.
expect_err_line() {
  checks=$((checks + 1))
  [ "$ERR" = "$1" ] || fail "stderr is not '$1': $ERR"
}
# require_mpi: the MPI tests skip (77) in the plain build or without mpirun; mpirun may run as root (CI
# containers), oversubscribed (more processes than cores) and unbound, whatever the machine's cores
# (else process 0 notes a narrower binding on stderr, which one process does not print).
require_mpi() {
  [ "${MSPROBE_MPI:-OFF}" = ON ] || { echo "plain build: no MPI"; exit 77; }
  command -v mpirun >/dev/null || { echo "no mpirun"; exit 77; }
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
    OMPI_MCA_hwloc_base_binding_policy=none
}
have_shared() { [ -d "$SHARED_DATA/msprobe_samples" ]; }
# check_summaries [DIR]: every msprobe-compare summary.json under DIR ($TMP) is valid against
# docs/summary.schema.json. finish checks $TMP; a test that rewrites its outputs (normalize_outputs.sh
# turns long digit runs into TS) checks each run before and sets SUMMARIES_CHECKED=1.
check_summaries() {
  local out
  out=$(python3 "$MSPROBE_ROOT/tests/cli/summary_schema_check.py" "$MSPROBE_ROOT/docs/summary.schema.json" "${1:-$TMP}" 2>&1) \
    || fail "summary.json against docs/summary.schema.json: $out"
  [ "$out" -eq 0 ] || checks=$((checks + 1))
}
finish() {
  [ "${SUMMARIES_CHECKED:-0}" = 1 ] || check_summaries
  echo "$(basename "$0"): $checks checks passed"
}
