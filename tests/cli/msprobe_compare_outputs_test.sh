#!/usr/bin/env bash
# msprobe-compare's outputs (docs/compare.md §1.5): -o and --junit are checked and their missing
# folders made before any input is read, and a run that fails after writing tables still writes
# summary.json, saying why it stopped.
source "$(dirname "$0")/lib.sh"
cmp=$MSPROBE_BIN/msprobe-compare
samples=$MSPROBE_ROOT/samples/dist2
kernel=$MSPROBE_ROOT/tests/data/kernel
copy() { cp -r "$1" "$2" && chmod -R u+w "$2"; }

# --junit in folders that do not exist yet: made, as -o's are
run "$cmp" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/out" --csv -q --junit "$TMP/reports/ci/junit.xml"
expect_code 0 "--junit in a missing folder"
checks=$((checks + 2))
[ -f "$TMP/reports/ci/junit.xml" ] || fail "no junit.xml: $(ls -R "$TMP/reports" 2>&1)"
[ -f "$TMP/out/summary.json" ] || fail "no summary.json: $(ls "$TMP/out")"
run "$cmp" -tp "$kernel/npu" -gp "$kernel/bench" --rank 0 -o "$TMP/k" --csv -q --junit "$TMP/kreports/ci/junit.xml"
expect_code 0 "kernel compare, --junit in a missing folder"
checks=$((checks + 1))
[ -f "$TMP/kreports/ci/junit.xml" ] || fail "kernel compare wrote no junit.xml"

# Mistaken outputs fail before the inputs are read: the inputs here do not even exist.
mkdir "$TMP/a_folder"
run "$cmp" -tp "$TMP/missing_target" -gp "$TMP/missing_golden" -o "$TMP/o1" --junit "$TMP/a_folder"
expect_code 3
expect_one_error_line msprobe-compare
expect_err "msprobe-compare: error: $TMP/a_folder: a folder, not a file: give --junit a file name such as junit.xml"
touch "$TMP/a_file"
run "$cmp" -tp "$TMP/missing_target" -gp "$TMP/missing_golden" -o "$TMP/a_file/out"
expect_code 3
expect_one_error_line msprobe-compare
expect_err "msprobe-compare: error: $TMP/a_file/out: cannot create the folder $TMP/a_file/out (Not a directory): choose another -o"
run "$cmp" -tp "$TMP/missing_target" -gp "$TMP/missing_golden" -o "$TMP/o2" --junit "$TMP/a_file/junit.xml"
expect_code 3
expect_one_error_line msprobe-compare
expect_err "msprobe-compare: error: $TMP/a_file/junit.xml: cannot create the folder $TMP/a_file (Not a directory): choose another --junit"
run "$cmp" -tp "$kernel/npu" -gp "$kernel/bench" --rank 0 -o "$TMP/a_file/k"
expect_code 3
expect_one_error_line msprobe-compare
expect_err "choose another -o"

# rank0's dump.json is cut short: the run fails (exit 3) after rank1 wrote its table, and summary.json
# says why, with rank1's pair.
copy "$samples/npu_t/step0" "$TMP/cut"
head -c 300 "$samples/npu_t/step0/rank0/dump.json" >"$TMP/cut/rank0/dump.json"
run "$cmp" -tp "$TMP/cut" -gp "$samples/bench_t/step0" -o "$TMP/o3" --csv
expect_code 3
expect_one_error_line msprobe-compare
expect_err "msprobe-compare: error: $TMP/cut/rank0/dump.json: invalid JSON at byte 300"
checks=$((checks + 1))
if ls "$TMP"/o3/compare_result_rank1_*.csv >/dev/null 2>&1; then
  python3 - "$TMP/o3/summary.json" "$TMP/cut/rank0/dump.json" <<'PY' || fail "summary.json of the failed run: $(cat "$TMP/o3/summary.json")"
import json, sys
summary = json.load(open(sys.argv[1]))
assert summary["error"].startswith(sys.argv[2] + ": invalid JSON at byte 300"), summary["error"]
assert [p["label"] for p in summary["pairs"]] == ["rank1"], summary["pairs"]
PY
else
  # rank1 had not started when rank0 failed: no table, so no summary.json either
  [ ! -e "$TMP/o3/summary.json" ] || fail "summary.json without tables: $(ls "$TMP/o3")"
fi

finish
