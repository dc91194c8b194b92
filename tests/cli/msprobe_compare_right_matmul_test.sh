#!/usr/bin/env bash
# --tensor-postprocess (msprobe's right_matmul, docs/compare.md §4.2 step 3) end to end on
# tests/data/right_matmul: the csv msprobe wrote, the warnings for what is compared as dumped, and the
# errors for a yaml that cannot be used.
source "$(dirname "$0")/lib.sh"
cmp=$MSPROBE_BIN/msprobe-compare
rm_data=$MSPROBE_ROOT/tests/data/right_matmul
check="python3 $MSPROBE_ROOT/tests/cli/msprobe_csv_check.py"

# the yaml's calibration paths are relative: from its directory, as msprobe opens them (the cwd)
cd "$rm_data" || fail "no $rm_data"
run "$cmp" -q -tp npu/dump.json -gp bench/dump.json -o "$TMP/rm" --csv --tensor-postprocess config/right_matmul.yaml
expect_code 0
expect_err "msprobe-compare: warning: config/right_matmul.yaml: invalid data_names for tensor path '/nonexistent/not_a_list.pt': expected a list, got str; skipped"
expect_err "msprobe-compare: warning: right_matmul: calib/R_T_bf16.pt: a bfloat16 calibration tensor cannot be multiplied; the tensors mapped to it are compared as dumped"
expect_err "msprobe-compare: warning: 2 tensor(s) compared as dumped, their right_matmul failed (e.g. target Functional.linear.2.forward.output.0.pt: right_matmul by calib/bad5.npy: [3, 4] @ [5, 5]: the shapes do not match)"
run $check "$TMP"/rm/compare_result_*.csv msprobe/right_matmul.csv
expect_code 0
# the same yaml given twice multiplies twice (R^T R^T is no longer the identity)
run "$cmp" -q -tp npu/dump.json -gp bench/dump.json -o "$TMP/twice" --csv --tensor-postprocess config/right_matmul.yaml \
  --tensor-postprocess config/right_matmul.yaml
expect_code 0
run $check "$TMP"/twice/compare_result_*.csv msprobe/right_matmul.csv
expect_code 1
expect_err "Functional.linear.0.forward.output.0) column Cosine"
# without the flag nothing is multiplied
run "$cmp" -q -tp npu/dump.json -gp bench/dump.json -o "$TMP/none" --csv
expect_code 0
grep -q '^Functional.linear.3.forward.output.0,.*shape unmatched' "$TMP"/none/compare_result_*.csv &&
  fail "linear.3 multiplied without the flag"
checks=$((checks + 1))

printf 'mode: left_matmul\n' >"$TMP/left.yaml"
run "$cmp" -q -tp npu/dump.json -gp bench/dump.json -o "$TMP/bad" --tensor-postprocess "$TMP/left.yaml"
expect_code 3
expect_one_error_line msprobe-compare
expect_err "left.yaml: line 1: unknown tensor postprocess mode left_matmul (only right_matmul)"
run "$cmp" -q -tp npu/dump.json -gp bench/dump.json -o "$TMP/bad" --tensor-postprocess "$TMP/missing.yaml"
expect_code 3
expect_one_error_line msprobe-compare
run "$cmp" -tp npu/dump.json -gp bench/dump.json --rank 0 --tensor-postprocess config/right_matmul.yaml
expect_code 2
expect_one_error_line msprobe-compare
[ ! -e "$TMP/bad" ] || fail "a refused run wrote $TMP/bad"
checks=$((checks + 1))
finish
