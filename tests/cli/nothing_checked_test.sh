#!/usr/bin/env bash
# Nothing checked is never "OK" (issue 26 item 2): recompute refuses a dump it cannot recompute,
# verify on a statistics dump says what it checked, convert without a .bin dump and merge whose
# config matches nothing are errors naming what the inputs hold. Exact messages: docs/ops.md §6,
# docs/kernel_dump.md, docs/formats.md §5.7.
source "$(dirname "$0")/lib.sh"
dump=$MSPROBE_BIN/msprobe-dump
convert=$MSPROBE_BIN/msprobe-convert
merge=$MSPROBE_BIN/msprobe-merge
data=$MSPROBE_ROOT/tests/data
stat=$data/int8/stat/npu                # msprobe's statistics dump, level L1, 5 entries
tensor=$data/int8/tensor/npu            # msprobe's tensor dump of the same run

# recompute: a statistics dump holds no tensors
run "$dump" recompute "$stat" -o "$TMP/r"
expect_code 3
expect_err_line "msprobe-dump: error: $stat/dump.json: a statistics dump (task \"statistics\") holds no tensors to recompute; dump with task \"tensor\" (level L1 or mix) and run recompute on it"
[ ! -e "$TMP/r" ] || fail "recompute created its output for a refused dump"

# recompute: a debug.json records no API calls
mkdir -p "$TMP/dbg"
printf '{"task": "tensor", "level": "debug", "framework": "pytorch", "dump_data_dir": null, "data": {}}' >"$TMP/dbg/debug.json"
run "$dump" recompute "$TMP/dbg" -o "$TMP/r"
expect_code 3
expect_err_line "msprobe-dump: error: $TMP/dbg/debug.json: a debug.json (msprobe's single-point save) records no API calls to recompute; recompute takes a tensor dump.json of level L1 or mix"

# recompute: a tensor dump whose calls have no float64 reference (names no op of docs/ops.md §3)
mkdir -p "$TMP/noref"
printf '{"task": "tensor", "level": "L1", "framework": "pytorch", "dump_data_dir": null, "data": {
  "Torch.foo.0.forward": {"input_args": [], "output": []},
  "Torch.bar.0.forward": {"input_args": [], "output": []}}}' >"$TMP/noref/dump.json"
run "$dump" recompute "$TMP/noref/dump.json" -o "$TMP/r"
expect_code 3
expect_err_line "msprobe-dump: error: $TMP/noref/dump.json: none of its 2 API call(s) has a float64 reference (first: Torch.foo.0.forward); nothing was recomputed (supported APIs: docs/ops.md §3)"

# recompute: every tensor file missing, so no call could be checked: refused, no table written
rec=$MSPROBE_ROOT/tests/data/recompute/golden/step0/rank0
mkdir -p "$TMP/gone" && cp "$rec/dump.json" "$TMP/gone/"
run "$dump" recompute "$TMP/gone" -o "$TMP/r_gone"
expect_code 3
expect_err_line "msprobe-dump: error: $TMP/gone/dump.json: none of its 7 API call(s) could be checked: 0 unsupported, 7 unreadable (first: Functional.linear.0.forward: $TMP/gone/dump_tensor_data/Functional.linear.0.forward.input.0.pt: no such file); nothing was recomputed"
checks=$((checks + 1))
[ -z "$(ls "$TMP/r_gone")" ] || fail "recompute wrote $(ls "$TMP/r_gone") having checked nothing"

# recompute: a level L0 dump records modules only
mkdir -p "$TMP/l0"
printf '{"task": "tensor", "level": "L0", "framework": "pytorch", "dump_data_dir": null, "data": {
  "Module.fc.Linear.forward.0": {"input_args": [], "output": []}}}' >"$TMP/l0/dump.json"
run "$dump" recompute "$TMP/l0/dump.json" -o "$TMP/r"
expect_code 3
expect_err_line "msprobe-dump: error: $TMP/l0/dump.json: its entries hold no forward API call to recompute (a level L0 dump records modules only); recompute takes a tensor dump of level L1 or mix"

# verify: a statistics dump has nothing to recompute; it says what it checked, never "OK"
run "$dump" verify "$stat"
expect_code 0
expect_err_line "checked 1 json file(s): 5 entries parsed; a statistics dump has no tensor files, so no statistics were recomputed"
[ -z "$OUT" ] || fail "verify printed on stdout: $OUT"
run "$dump" verify --json "$stat"
expect_code 0
expect_out '"task":"statistics","entries":5,'
expect_out '"files_checked":0,'
run "$dump" verify "$tensor"
expect_code 0
expect_err "OK: 1 json file(s), "

# verify: a tensor dump.json whose "data" is empty has nothing to verify: refused, never "ok": true
mkdir -p "$TMP/nodata"
printf '{"task": "tensor", "level": "L1", "framework": "pytorch", "dump_data_dir": null, "data": {}}' >"$TMP/nodata/dump.json"
for json_flag in "" --json; do
  run "$dump" verify $json_flag "$TMP/nodata"
  expect_code 3 "verify $json_flag"
  expect_err_line "msprobe-dump: error: $TMP/nodata/dump.json: its \"data\" holds no API entries: nothing to verify"
  checks=$((checks + 1))
  [ -z "$OUT" ] || fail "verify $json_flag printed on stdout: $OUT"
done

# verify: one rank's dump.json of no entry beside a complete rank is a finding (exit 1), not an "OK"
mkdir -p "$TMP/one_empty"
cp -r "$MSPROBE_ROOT/samples/dist2/npu_t/step0/rank0" "$TMP/one_empty/rank0"
mkdir -p "$TMP/one_empty/rank1"
cp "$TMP/nodata/dump.json" "$TMP/one_empty/rank1/dump.json"
run "$dump" verify "$TMP/one_empty"
expect_code 1 "verify with an empty rank"
expect_err "empty         $TMP/one_empty/rank1/dump.json  its \"data\" holds no API entries: nothing verified"
expect_err "FAILED: 2 json file(s), "
# recompute: the complete rank is checked and written, the empty one fails the run
run "$dump" recompute -q "$TMP/one_empty" -o "$TMP/one_empty_out"
expect_code 1 "recompute with an empty rank"
expect_err_line "1 dump(s) not checked: no forward API call (an interrupted rank?); first: $TMP/one_empty/rank1/dump.json"
checks=$((checks + 1))
grep -qF "\"$TMP/one_empty/rank1/dump.json\"" "$TMP/one_empty_out/summary.json" || fail "summary: $(cat "$TMP/one_empty_out/summary.json")"

# convert: no .bin dump in the folder is an error naming what it holds
mkdir -p "$TMP/empty"
tail=" msprobe-convert converts the .bin files the Ascend runtime dumps (acl.json dump_path)"
run "$convert" -d "$TMP/empty" -o "$TMP/c"
expect_code 3
expect_err_line "msprobe-convert: error: $TMP/empty: no kernel .bin dump found; the folder holds nothing;$tail"
pts=$(find "$tensor" -name '*.pt' | wc -l)
run "$convert" -d "$tensor" -o "$TMP/c"
expect_code 3
expect_err_line "msprobe-convert: error: $tensor: no kernel .bin dump found; the folder holds an msprobe dump (dump.json, $pts .pt files);$tail"
npys=$(find "$data/kernel/npu" -name '*.npy' | wc -l)
[ -f "$data/kernel/npu/rank_0/Net/0/0/mapping.csv" ] || fail "the npy kernel tree lost its mapping.csv"
run "$convert" -d "$data/kernel/npu" -o "$TMP/c"
expect_code 3
expect_err_line "msprobe-convert: error: $data/kernel/npu: no kernel .bin dump found; the folder holds an npy kernel dump (mapping.csv, $npys .npy files);$tail"

# merge: an api list that matches no row, a compare_index the results lack
samples=$MSPROBE_ROOT/samples/dist2
run "$MSPROBE_BIN/msprobe-compare" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/cmp" -q
expect_code 0
# The first three APIs (name up to its second dot) of rank 0's rows, read with Python's csv module.
apis=$(python3 -c '
import csv, glob, sys
seen = []
for row in csv.DictReader(open(sorted(glob.glob(sys.argv[1] + "/compare_result_rank0_*.csv"))[0])):
    api = ".".join(row["NPU Name"].split(".")[:2])
    if api not in seen: seen.append(api)
print(", ".join(seen[:3]) + (", …" if len(seen) > 3 else ""))' "$TMP/cmp")
printf 'api:\n- Functional.foo\n' >"$TMP/foo.yaml"
run "$merge" -i "$TMP/cmp" -o "$TMP/m" -config "$TMP/foo.yaml"
expect_code 3
expect_err "msprobe-merge: error: $TMP/foo.yaml: api [Functional.foo] matches no row of the 2 input(s) (their APIs include $apis)"
checks=$((checks + 1))
[ -z "$(ls "$TMP/m")" ] || fail "merge wrote a workbook that merges nothing: $(ls "$TMP/m")"
printf 'api:\n- Functional.linear\ncompare_index:\n- Max diff\n' >"$TMP/index.yaml"
run "$merge" -i "$TMP/cmp" -o "$TMP/m" -config "$TMP/index.yaml"
expect_code 3
expect_err "msprobe-merge: error: $TMP/index.yaml: compare_index [Max diff] fits none of the inputs: they are tensor results (columns Cosine, EucDist, MaxAbsErr, …)"
finish
