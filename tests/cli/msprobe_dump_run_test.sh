#!/usr/bin/env bash
# msprobe-dump run end to end: the capture shim on the sample program under the fake ACL runtime; a
# clean run and a run with an injected NaN, both converted with msprobe-convert and compared slot by
# slot with msprobe-dump stats. (Not msprobe-compare: it pairs kernels by op name, and the shim's
# op names carry the process-wide call index, which differs between two runs of a two-thread program.)
source "$(dirname "$0")/lib.sh"
dump=$MSPROBE_BIN/msprobe-dump
convert=$MSPROBE_BIN/msprobe-convert
sample=$MSPROBE_BIN/../capture_shim/sample_train
[ -x "$sample" ] || { echo "sample_train not built"; exit 77; }

run "$dump" run --help
expect_code 0
expect_out "The program and its arguments, after --"
run "$dump" run
expect_code 2
run "$dump" run --mode bogus -- "$sample"
expect_code 2
run "$dump" run --ranks x -- "$sample"
expect_code 2
expect_one_error_line msprobe-dump
run "$dump" run --dir "$TMP/none" -- "$TMP/no-such-program"
expect_code 3
expect_one_error_line msprobe-dump
run "$dump" run --shim "$TMP/missing.so" -- "$sample"
expect_code 3

# The program's exit code comes back; its output is untouched.
run "$sample" --steps 2
plain=$OUT
run "$dump" run --dir "$TMP/good" -- "$sample" --steps 2
expect_code 0
checks=$((checks + 1))
[ "$OUT" = "$plain" ] || fail "stdout is not exactly the program's: $OUT"  # our report goes to stderr
expect_err "52 ops captured, 52 files"
expect_err "0 dropped"
expect_err "by op type: Axpy 8, Cast 4, MatMul 20, Muls 4, Relu 4, ReluGrad 4, Softmax 4, Sub 4"
run "$dump" run --dir "$TMP/bad" -- "$sample" --steps 2 --nan-step 1
expect_code 0
run "$dump" run --dir "$TMP/stats" --mode stats --ops '^MatMul$' -- "$sample" --steps 1
expect_code 0
expect_err "10 ops captured, 0 files, 0 bytes, 10 ops as statistic.csv rows, 0 dropped"
run "$dump" run -q --dir "$TMP/quiet" -- "$sample" --steps 1
expect_code 0
expect_out "weights checksum"
checks=$((checks + 1))
! grep -q "captured" <<<"$OUT$ERR" || fail "-q printed a summary: $OUT$ERR"
run "$dump" run --dir "$TMP/code" -- "$sample" --no-such-flag
expect_code 2
expect_err "usage: sample_train"
expect_err "nothing captured"

# Convert both captures; pair slots by op type, task and stream (op names carry the process-wide
# call index, which depends on how the two threads interleave).
for side in good bad; do
  run "$convert" -d "$TMP/$side" -o "$TMP/${side}_npy"
  expect_code 0
  expect_err "52 files, 140 tensors written"
done
key() { basename "$1" | awk -F. '{print $1"."$3"."$4"."$6"."$7}'; }
declare -A good_files
for f in $(find "$TMP/good_npy" -name '*.npy'); do good_files[$(key "$f")]=$f; done
same=0; differ=0; nan_first=""
for f in $(find "$TMP/bad_npy" -name '*.npy' | sort); do
  k=$(key "$f")
  g=${good_files[$k]:-}
  [ -n "$g" ] || fail "no counterpart for $k"
  bad_stats=$("$dump" stats "$f" | sed 's/^[^ ]*  //')
  good_stats=$("$dump" stats "$g" | sed 's/^[^ ]*  //')
  if [ "$bad_stats" = "$good_stats" ]; then same=$((same + 1)); else differ=$((differ + 1)); fi
  case "$bad_stats" in *"nan=0 "*) ;; *) [[ "$k" == Cast.13.1.input.0 ]] && nan_first=$bad_stats ;; esac
done
checks=$((checks + 1))
# Stream 2 (thread 1) and step 0 of stream 1 are untouched (70 + 35 slots). Of the 35 slots of stream
# 1's step 1, the six that do not depend on the batch stay equal: W1 into the first MatMul, W2 into the
# second and into the dA1 MatMul, the labels into Sub, and W2/W1 before their Axpy updates.
[ "$same" -eq 111 ] && [ "$differ" -eq 29 ] || fail "expected 111 equal and 29 different slots, got $same and $differ"
checks=$((checks + 1))
[[ "$nan_first" == *"nan=1 "* ]] || fail "the injected NaN is not in Cast's input at step 1: '$nan_first'"
finish
