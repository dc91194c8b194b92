#!/usr/bin/env bash
# msprobe-dump end to end: help, stats, verify on good and broken dumps, exit codes and error lines.
source "$(dirname "$0")/lib.sh"
dump=$MSPROBE_BIN/msprobe-dump
sample=$MSPROBE_ROOT/samples/dist2/npu_t/step0

run "$dump" --help
expect_code 0
expect_out "Examples:"
expect_out "Exit codes"
run "$dump" verify --help
expect_code 0
run "$dump" --version
expect_code 0
expect_out "msprobe-cpp"
run "$dump" frobnicate
expect_code 2
run "$dump" stats
expect_code 2

# stats: values as torch wrote them into dump.json (rank0 Functional.linear.0.forward input 0: Max 1.5236841440200806)
run "$dump" stats "$sample/rank0/dump_tensor_data/Functional.linear.0.forward.input.0.pt"
expect_code 0
expect_out "float32  [3, 8]"
expect_out "max=1.5236841440200806 min=-1.2600730657577515"
run "$dump" stats --json "$sample/rank0/dump_tensor_data/Functional.linear.0.forward.input.0.pt"
expect_code 0
expect_out '"dtype":"float32","shape":[3,8],"max":1.5236841440200806'
# strict JSON: non-finite statistics as Python's repr text, never bare NaN/Infinity tokens
run "$dump" stats --json "$MSPROBE_ROOT/tests/data/stats/f32_infinities.npy" "$MSPROBE_ROOT/tests/data/stats/f32_special.npy"
expect_code 0
expect_out '"max":"inf","min":"-inf","mean":"nan","norm":"inf"'
expect_out '"max":"nan","min":"nan","mean":"nan","norm":"nan"'
checks=$((checks + 1))
! grep -qE 'NaN|Infinity' <<<"$OUT" || fail "bare NaN/Infinity in --json: $OUT"
run "$dump" stats "$TMP/none.pt"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "none.pt: no such file"
printf 'garbage' > "$TMP/garbage.npy"
run "$dump" stats "$TMP/garbage.npy"
expect_code 3
expect_one_error_line msprobe-dump

# verify: the bundled 2-rank step agrees with its json
run "$dump" verify "$sample"
expect_code 0
expect_err "OK: 2 json file(s)"
run "$dump" -q verify "$sample/rank1/dump.json"
expect_code 0
[ -z "$OUT" ] || fail "-q printed: $OUT"

# verify: a missing file is named and fails the gate (exit 1); the input is never modified
cp -r "$sample/rank0" "$TMP/rank0" && chmod -R u+w "$TMP/rank0"
rm "$TMP/rank0/dump_tensor_data/Functional.relu.0.forward.output.0.pt"
before=$(cat "$TMP/rank0/dump.json" | cksum)
run "$dump" verify "$TMP/rank0"
expect_code 1
expect_err "missing"
expect_err "Functional.relu.0.forward.output.0.pt"
# the file not read is counted as missing, never among those checked (45 named, 44 read)
expect_err "FAILED: 1 json file(s), 44 tensor file(s) checked, 1 missing, 1 problem(s)"
[ "$(cat "$TMP/rank0/dump.json" | cksum)" = "$before" ] || fail "verify modified its input"
run "$dump" verify --json "$TMP/rank0"
expect_code 1
expect_out '"kind":"missing"'
expect_out '"files_checked":44,"files_missing":1,"files_unreadable":0,'

# verify: bad json → exit 3 with one line naming the file
printf '{"task": "tensor", "data": {' > "$TMP/rank0/dump.json"
run "$dump" verify "$TMP/rank0"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "dump.json: invalid JSON at byte"
run "$dump" verify "$TMP/does-not-exist"
expect_code 3
expect_one_error_line msprobe-dump

# verify: a weight holding 3.4e38, whose float32 Mean and Norm torch recorded as inf, is intact; the same
# dump with that element's exponent byte flipped (3.4e38 -> ~1, first occurrence of its bytes) is not
ovf=$MSPROBE_ROOT/tests/data/verify_overflow/overflow/step0/rank0
run "$dump" verify "$ovf"
expect_code 0 "overflow dump"
expect_err "OK: 1 json file(s), 4 tensor file(s) checked, 0 problem(s)"
cp -r "$ovf" "$TMP/ovf" && chmod -R u+w "$TMP/ovf"
w="$TMP/ovf/dump_tensor_data/Functional.linear.0.forward.input.1.pt"
at=$(LC_ALL=C grep -obUaP '\x9e\xc9\x7f\x7f' "$w" | head -1 | cut -d: -f1)
[ -n "$at" ] || fail "no float32 3.4e38 in $w"
printf '\x3f' | dd of="$w" bs=1 seek=$((at + 3)) conv=notrunc status=none
run "$dump" verify "$TMP/ovf"
expect_code 1 "overflow dump, flipped byte"
expect_err "Functional.linear.0.forward.input_args.1  Mean recorded inf, computed 7.3"

# every dump msprobe produced in ../shared agrees with its json
if have_shared; then
  for d in single_proc/st_mix single_proc/t_l1 single_proc/md5_l1 single_proc/xor_l1 single_proc/dbg_t dist2/bench_t dist2_da/target; do
    run "$dump" verify "$SHARED_DATA/msprobe_samples/$d"
    expect_code 0 "$d"
  done
fi
finish
