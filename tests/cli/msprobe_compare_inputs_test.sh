#!/usr/bin/env bash
# msprobe-compare on malformed and unusual inputs: whole-run errors exit 3 with one line naming the
# file; per-row problems (missing or hostile data_name) are rows, as msprobe reports them.
source "$(dirname "$0")/lib.sh"
cmp=$MSPROBE_BIN/msprobe-compare
samples=$MSPROBE_ROOT/samples/dist2
npu=$samples/npu_t/step0/rank0
bench=$samples/bench_t/step0/rank0
copy() { cp -r "$1" "$2" && chmod -R u+w "$2"; }

# bad JSON
copy "$npu" "$TMP/bad"
head -c 300 "$npu/dump.json" > "$TMP/bad/dump.json"
run "$cmp" -tp "$TMP/bad/dump.json" -gp "$bench/dump.json" -o "$TMP/o1"
expect_code 3
expect_one_error_line msprobe-compare
expect_err "bad/dump.json: invalid JSON at byte"
[ ! -e "$TMP/o1" ] || [ -z "$(ls "$TMP/o1")" ] || fail "output written for a failed compare: $(ls "$TMP/o1")"

# mismatched task, unknown framework, dump.json vs debug.json
copy "$npu" "$TMP/stat"
sed -i 's/"task": "tensor"/"task": "statistics"/' "$TMP/stat/dump.json"
run "$cmp" -tp "$TMP/stat/dump.json" -gp "$bench/dump.json" -o "$TMP/o2"
expect_code 3
expect_one_error_line msprobe-compare
expect_err "task"
copy "$npu" "$TMP/jax"
sed -i 's/"framework": "pytorch"/"framework": "jax"/' "$TMP/jax/dump.json"
run "$cmp" -tp "$TMP/jax/dump.json" -gp "$bench/dump.json" -o "$TMP/o3"
expect_code 3
expect_one_error_line msprobe-compare
expect_err "jax"
mkdir -p "$TMP/dbg" && cp "$npu/dump.json" "$TMP/dbg/debug.json"
run "$cmp" -tp "$TMP/dbg/debug.json" -gp "$bench/dump.json" -o "$TMP/o4"
expect_code 3
expect_one_error_line msprobe-compare

# the output directory cannot be created
touch "$TMP/not_a_dir"
run "$cmp" -tp "$npu/dump.json" -gp "$bench/dump.json" -o "$TMP/not_a_dir/out"
expect_code 3
expect_one_error_line msprobe-compare

# a missing tensor file and a hostile data_name: those rows say "unsupported", the run goes on
copy "$npu" "$TMP/rows"
rm "$TMP/rows/dump_tensor_data/Functional.linear.0.forward.input.0.pt"
sed -i 's#"data_name": "Functional.relu.0.forward.output.0.pt"#"data_name": "../../../etc/passwd"#' "$TMP/rows/dump.json"
run "$cmp" -tp "$TMP/rows/dump.json" -gp "$bench/dump.json" -o "$TMP/o5" --csv
expect_code 0
csv=$(ls "$TMP"/o5/compare_result_*.csv)
grep -q '^Functional.linear.0.forward.input.0,Functional.linear.0.forward.input.0,.*,unsupported,unsupported,unsupported,unsupported,unsupported,unsupported,' "$csv" \
  || fail "missing file row: $(grep '^Functional.linear.0.forward.input.0,' "$csv")"
checks=$((checks + 1))

# two rank dirs directly (beyond msprobe), fuzzy matching, and an inputs-untouched check
before=$(cat "$npu/dump.json" "$bench/dump.json" | cksum)
run "$cmp" -tp "$npu" -gp "$bench" -o "$TMP/o6" -fm --xlsx -q
expect_code 0
ls "$TMP/o6" | grep -qE '^compare_result_rank0_[0-9]{14}\.xlsx$' || fail "rank-dir pair name: $(ls "$TMP/o6")"
[ "$(cat "$npu/dump.json" "$bench/dump.json" | cksum)" = "$before" ] || fail "inputs modified"
checks=$((checks + 1))

# -dm: a renamed NPU row still finds its bench row through the mapping
copy "$npu" "$TMP/renamed"
sed -i 's/"Functional.relu.0.forward"/"Functional.relu.7.forward"/; s/Functional.relu.0.forward.\(input\|output\).0.pt/Functional.relu.7.forward.\1.0.pt/g' "$TMP/renamed/dump.json"
for f in "$TMP"/renamed/dump_tensor_data/Functional.relu.0.forward.*; do mv "$f" "${f/relu.0/relu.7}"; done
printf 'Functional.relu.7.forward.input.0: Functional.relu.0.forward.input.0\nFunctional.relu.7.forward.output.0: Functional.relu.0.forward.output.0\n' > "$TMP/map.yaml"
run "$cmp" -tp "$TMP/renamed/dump.json" -gp "$bench/dump.json" -o "$TMP/o8" --csv -dm "$TMP/map.yaml"
expect_code 0
grep -q '^Functional.relu.7.forward.output.0,Functional.relu.0.forward.output.0,' "$TMP"/o8/*.csv || fail "-dm did not map: $(grep relu "$TMP"/o8/*.csv | head -2)"
run "$cmp" -tp "$TMP/renamed/dump.json" -gp "$bench/dump.json" -o "$TMP/o9" --csv
grep -q '^Functional.relu.7.forward.output.0,N/A,' "$TMP"/o9/*.csv || fail "unmapped rename should be unmatched"
checks=$((checks + 2))
run "$cmp" -tp "$TMP/renamed/dump.json" -gp "$bench/dump.json" -o "$TMP/o10" -dm "$TMP/missing.yaml"
expect_code 3
expect_one_error_line msprobe-compare

# --rank/--step: the kernel-dump compare of two npy dump trees (docs/kernel_dump.md §6)
kernel=$MSPROBE_ROOT/tests/data/kernel
run "$cmp" -tp "$kernel/npu" -gp "$kernel/bench" --rank 0 -o "$TMP/k"
expect_code 0
ls "$TMP/k" | grep -qE '^compare_result_0_0_[0-9]{14}\.csv$' || fail "kernel compare names: $(ls "$TMP/k")"
ls "$TMP/k" | grep -qE '^compare_result_0_0_[0-9]{14}\.xlsx$' || fail "kernel compare xlsx: $(ls "$TMP/k")"
checks=$((checks + 2))
run "$cmp" -tp "$kernel/npu" -gp "$kernel/bench" --rank x -o "$TMP/k2"
expect_code 2
run "$cmp" -tp "$kernel/npu" -gp "$kernel/bench" --rank 7 -o "$TMP/k3"
expect_code 3
expect_one_error_line msprobe-compare
# the run-wide contract: summary.json whose counts are the csv's Accuracy column (Yes pass, No error,
# anything else warning), --fail-on naming the first "No" row, JUnit with a failing testcase for it
[ -f "$TMP/k/summary.json" ] || fail "kernel compare wrote no summary.json: $(ls "$TMP/k")"
run python3 -c '
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
acc = [r["Accuracy Reached or Not"] for r in rows]
# rows without a golden counterpart have no Bench Name; golden rows no target row matched, no NPU Name
want = {"rows": len(rows), "pass": acc.count("Yes"), "warning": len(rows) - acc.count("Yes") - acc.count("No"),
        "error": acc.count("No"), "unmatched_target": sum(not r["Bench Name"] for r in rows),
        "unmatched_golden": sum(not r["NPU Name"] for r in rows), "unreadable_tensors": 0}
got = json.load(open(sys.argv[2]))["counts"]
print("ok" if got == want and want["error"] == 5 and want["unmatched_golden"] == 1 else f"summary {got} != csv {want}")' "$(ls "$TMP"/k/compare_result_0_0_*.csv)" "$TMP/k/summary.json"
expect_code 0
expect_out ok
run "$cmp" -tp "$kernel/npu" -gp "$kernel/bench" --rank 0 -o "$TMP/k4" --csv --fail-on error --junit "$TMP/k4.xml" -q
expect_code 1
expect_err "gate failed (--fail-on error): $TMP/k4/compare_result_0_0_"
# the reason names the rule that failed (docs/compare.md §5.2) with the csv's row 4 values: Cosine -1.0,
# MaxAbsErr 3.867789030075 (msprobe's Err_message is empty for a plain "No")
reason="Add.Default_Add-op0.0.0.150.output.0.DefaultFormat.float32.npy: error: Cosine -1 < 0.99 and MaxAbsErr 3.867789030075 > 0.001"
expect_err "row 4: $kernel/npu/rank_0/Net/0/0/$reason"
grep -qF '"err_message": "Cosine -1 < 0.99 and MaxAbsErr 3.867789030075 > 0.001"' "$TMP/k4/summary.json" \
  || fail "summary.json first_error: $(grep -A3 '"first_error"' "$TMP/k4/summary.json")"
checks=$((checks + 1))
# 8 kernels, 5 failing, and the testcase "not compared" (Relu's output has no golden file, Gelu's no
# target file), skipped: --fail-on error does not fail on it (docs/compare.md §1.5)
grep -q '<testsuite name="rank0_step0" tests="9" failures="5" errors="0" skipped="1"' "$TMP/k4.xml" || fail "kernel junit suite: $(cat "$TMP/k4.xml")"
grep -A1 '<testcase name="not compared" classname="rank0_step0">' "$TMP/k4.xml" \
  | grep -qF '<skipped message="1 target row(s) without a golden counterpart (first: '"$kernel/npu/rank_0/Net/0/0/Relu.Default_Relu-op6.0.0.600.output.0.DefaultFormat.float32.npy, " \
  || fail "kernel junit: not compared: $(grep -A1 'not compared' "$TMP/k4.xml")"
checks=$((checks + 1))
grep -A1 '<testcase name="Default_Add-op0.0" classname="rank0_step0">' "$TMP/k4.xml" | grep -q '<failure message=".*Default_Add-op0.0.0.150.output.0' \
  || fail "kernel junit: no failing testcase for the first No row: $(cat "$TMP/k4.xml")"
checks=$((checks + 2))
if command -v xmllint >/dev/null; then
  run xmllint --noout --schema "$MSPROBE_ROOT/tests/data/triage/junit.xsd" "$TMP/k4.xml"
  expect_code 0 "kernel junit vs junit.xsd"
fi
# a tree against itself has no "No" row: the gate passes
run "$cmp" -tp "$kernel/npu" -gp "$kernel/npu" --rank 0 -o "$TMP/k5" --csv --fail-on error --junit "$TMP/k5.xml" -q
expect_code 0
grep -q '<testsuites name="msprobe-compare" tests="7" failures="0"' "$TMP/k5.xml" || fail "self junit: $(cat "$TMP/k5.xml")"
checks=$((checks + 1))
# --fail-on-first-diff needs -da, which the kernel compare does not take
run "$cmp" -tp "$kernel/npu" -gp "$kernel/bench" --rank 0 -o "$TMP/k6" --fail-on-first-diff
expect_code 2
expect_one_error_line msprobe-compare
expect_err "--fail-on-first-diff"

# debug.json pairs are written as debug_compare_result_*
if have_shared; then
  dbg=$SHARED_DATA/msprobe_samples/single_proc/dbg_t
  run "$cmp" -tp "$(ls "$dbg"/step0/*/debug.json)" -gp "$(ls "$dbg"/step1/*/debug.json)" -o "$TMP/o7" --csv
  expect_code 0
  ls "$TMP/o7" | grep -qE '^debug_compare_result_[0-9]{14}\.csv$' || fail "debug name: $(ls "$TMP/o7")"
  checks=$((checks + 1))
  # md5 (CRC-32) mode: the header msprobe writes for it
  md5=$SHARED_DATA/msprobe_samples/single_proc/md5_l1
  run "$cmp" -tp "$(ls "$md5"/step0/*/dump.json)" -gp "$(ls "$md5"/step1/*/dump.json)" -o "$TMP/o11" --csv
  expect_code 0
  head -1 "$TMP"/o11/*.csv | grep -q ',NPU MD5,BENCH MD5,Requires_grad Consistent,Result,Err_message,NPU_Stack_Info$' \
    || fail "md5 header: $(head -1 "$TMP"/o11/*.csv)"
  checks=$((checks + 1))
fi
# a rank directory number past INT_MAX: refused clearly, exit 3 (it once ended in "internal error: stoi")
mkdir -p "$TMP/big/n/rank2147483648" "$TMP/big/g/rank2147483648"
cp "$npu/dump.json" "$TMP/big/n/rank2147483648/" && cp "$bench/dump.json" "$TMP/big/g/rank2147483648/"
run "$cmp" -tp "$TMP/big/n" -gp "$TMP/big/g" -o "$TMP/o_big" -da
expect_code 3
expect_one_error_line msprobe-compare
expect_err "rank2147483648: rank number 2147483648 is out of range (at most 2147483647)"
# two rank dirs given directly, named rank<letters>: compared as rank 0 under -da
mkdir -p "$TMP/abc/n/rankabc" "$TMP/abc/g/rankabc"
cp "$npu/dump.json" "$TMP/abc/n/rankabc/" && cp "$bench/dump.json" "$TMP/abc/g/rankabc/"
run "$cmp" -q -tp "$TMP/abc/n/rankabc" -gp "$TMP/abc/g/rankabc" -o "$TMP/o_abc" -da
expect_code 0
finish
