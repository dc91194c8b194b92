#!/usr/bin/env bash
# msprobe (the umbrella): msprobe's command lines run our programs with the same results as calling
# them directly; -f/--framework accepted and ignored; msprobe's online tools refused (exit 2); a
# missing sibling program is one error line (exit 4). `parse -t pt` files are loaded by torch when
# /usr/bin/python3 has it (skipped otherwise).
source "$(dirname "$0")/lib.sh"
umb=$MSPROBE_BIN/msprobe
samples=$MSPROBE_ROOT/samples/dist2
bins=$MSPROBE_ROOT/tests/data/bin/cases

run "$umb" --help
expect_code 0
expect_out "Examples:"
expect_out "merge_result"
run "$umb" --version
expect_code 0
expect_out "msprobe (msprobe-cpp)"
run "$umb"
expect_code 2
expect_err_line "msprobe: error: a subcommand is required: compare, merge_result, parse, overflow_check or data2db; run msprobe --help for usage"
run "$umb" -f pytorch
expect_code 2
expect_one_error_line msprobe
expect_err "a subcommand is required"
run "$umb" -f tensorflow compare
expect_code 2
expect_err "pytorch or mindspore"
for tool in run_ut multi_run_ut api_precision_compare run_overflow_check graph_visualize config_check; do
  run "$umb" "$tool" -api_info x.json
  expect_code 2
  expect_one_error_line msprobe
  expect_err "'$tool' is one of msprobe's online tools, not part of this toolkit (it needs a device and Python); this toolkit offers: compare, merge_result, parse"
done
run "$umb" -f mindspore run_ut
expect_code 2
expect_err "online tools"
run "$umb" frobnicate
expect_code 2
expect_err "'frobnicate' is not a msprobe subcommand"

# the subcommand's own --help, under its own name
run "$umb" compare --help
expect_code 0
expect_out "msprobe-compare"

# compare: the same csv bytes as msprobe-compare itself, with and without msprobe's older -f form
run "$MSPROBE_BIN/msprobe-compare" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/direct" -q
expect_code 0
run "$umb" compare -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/umb" -q
expect_code 0
run "$umb" -f pytorch compare -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/umb_f" -q
expect_code 0
run "$umb" --framework=mindspore compare -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/umb_f2" -q
expect_code 0
# file names carry a timestamp: compare the csv files in name order
same_csvs() {
  local a b
  mapfile -t a < <(cd "$1" && find . -name '*.csv' | sort)
  mapfile -t b < <(cd "$2" && find . -name '*.csv' | sort)
  checks=$((checks + 1))
  [ "${#a[@]}" -gt 0 ] && [ "${#a[@]}" -eq "${#b[@]}" ] || fail "csv files differ: ${a[*]} vs ${b[*]}"
  for i in "${!a[@]}"; do
    cmp -s "$1/${a[$i]}" "$2/${b[$i]}" || fail "$2/${b[$i]} differs from $1/${a[$i]}"
  done
}
same_csvs "$TMP/direct" "$TMP/umb"
same_csvs "$TMP/direct" "$TMP/umb_f"
same_csvs "$TMP/direct" "$TMP/umb_f2"

# merge_result, msprobe's flags
printf 'api:\n- Distributed.all_reduce\n- Functional.linear\n' >"$TMP/merge.yaml"
run "$umb" merge_result -i "$TMP/direct" -o "$TMP/merged" -config "$TMP/merge.yaml"
expect_code 0
expect_err "merged 2 rank(s)"
ls "$TMP"/merged/multi_ranks_compare_merge_*.xlsx >/dev/null 2>&1 || fail "no merged workbook"

# parse -t npy: what msprobe-convert writes
run "$MSPROBE_BIN/msprobe-convert" -d "$bins" -o "$TMP/npy_direct" -q
expect_code 0
run "$umb" parse -d "$bins" -t npy -o "$TMP/npy_umb" -q
expect_code 0
checks=$((checks + 1))
diff -r "$TMP/npy_direct" "$TMP/npy_umb" >/dev/null || fail "parse -t npy differs from msprobe-convert"

# parse -t pt, and parse without -t (msprobe's default: pt): {bin}.{input|output}.{slot}.pt
run "$umb" parse -d "$bins" -t pt -o "$TMP/pt" -q
expect_code 0
run "$umb" parse -d "$bins" -o "$TMP/pt_default"
expect_code 0
expect_err "uint64 has no torch dtype"
checks=$((checks + 1))
diff -r "$TMP/pt" "$TMP/pt_default" >/dev/null || fail "parse without -t did not write the same .pt files"
add=Add.Default_Add-op1.3.2.1735011096403740
for f in "$add.input.0.pt" "$add.output.0.pt"; do
  checks=$((checks + 1))
  [ -f "$TMP/pt/$f" ] || fail "$f not written: $(ls "$TMP/pt" | head)"
done
npts=$(find "$TMP/pt" -name '*.pt' | wc -l)
nnpy=$(find "$TMP/npy_umb" -name '*.npy' | wc -l)
checks=$((checks + 1))
[ "$npts" -eq $((nnpy - 1)) ] || fail "$npts .pt files for $nnpy .npy (only the uint64 slot is skipped)"
# our own reader reads them back
run "$MSPROBE_BIN/msprobe-dump" stats "$TMP/pt/$add.output.0.pt"
expect_code 0

# torch itself loads every .pt and finds the values msprobe-convert wrote to .npy
if /usr/bin/python3 -c 'import torch, numpy' 2>/dev/null; then
  run /usr/bin/python3 - "$TMP/pt" "$TMP/npy_umb" <<'PY'
import glob, os, sys
import numpy as np, torch
pt_dir, npy_dir = sys.argv[1:]
n = 0
for f in sorted(glob.glob(os.path.join(pt_dir, "*.pt"))):
    t = torch.load(f)
    base = os.path.basename(f)[:-3]
    (npy,) = glob.glob(os.path.join(npy_dir, glob.escape(base) + ".*.npy"))
    a = np.load(npy)
    assert type(t) is torch.Tensor and t.is_contiguous() and not t.requires_grad, f
    if t.dtype == torch.bfloat16:
        assert ".BF16." in npy, f
        got = t.float().numpy()
    else:
        got = t.numpy()
        assert got.dtype == a.dtype or ".UINT" in npy, (f, got.dtype, a.dtype)
    assert got.shape == a.shape, (f, got.shape, a.shape)
    assert np.array_equal(got.astype(a.dtype), a, equal_nan=a.dtype.kind in "fc"), f
    n += 1
print(n, "loaded")
PY
  expect_code 0
  expect_out "loaded"
else
  echo "torch not installed for /usr/bin/python3: .pt files not loaded by torch"
fi

# the sibling missing: one error line, exit 4
mkdir -p "$TMP/alone" && cp "$umb" "$TMP/alone/msprobe"
run "$TMP/alone/msprobe" compare -tp a -gp b
expect_code 4
expect_one_error_line msprobe
expect_err "msprobe-compare"
finish
