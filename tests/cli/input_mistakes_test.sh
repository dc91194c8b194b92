#!/usr/bin/env bash
# Errors that say what was found and what to do (issue 26 item 4): a folder given to compare that is
# no step folder (empty, a dump root, an npy kernel tree without --rank, a rank folder without its
# dump.json), a file of the wrong kind, and usage errors: each one line, exit 3 (usage: 2).
source "$(dirname "$0")/lib.sh"
cmp=$MSPROBE_BIN/msprobe-compare
samples=$MSPROBE_ROOT/samples/dist2
data=$MSPROBE_ROOT/tests/data
expected="expected a dump: a step folder (rank*/ or proc*/ with dump.json), a rank folder (dump.json), or a dump.json"

# an empty folder
mkdir -p "$TMP/empty"
run "$cmp" -tp "$TMP/empty" -gp "$samples/bench_t/step0" -o "$TMP/out"
expect_code 3
expect_err_line "msprobe-compare: error: $TMP/empty: empty folder; $expected"

# a dump root (the folder above step0): compare one step, named on both sides
mkdir -p "$TMP/root"
cp -r "$samples/npu_t/step0" "$TMP/root/step0"
cp -r "$samples/npu_t/step0" "$TMP/root/step1"
run "$cmp" -tp "$TMP/root" -gp "$samples/bench_t" -o "$TMP/out"
expect_code 3
expect_err_line "msprobe-compare: error: $TMP/root: a dump root with 2 steps (step0, step1); compare one step: -tp $TMP/root/step0 -gp $samples/bench_t/step0"

# an npy kernel dump tree without --rank
run "$cmp" -tp "$data/kernel/npu" -gp "$data/kernel/bench" -o "$TMP/out"
expect_code 3
expect_err_line "msprobe-compare: error: $data/kernel/npu: an npy kernel dump tree (rank 0); compare it with --rank 0 [--step N]"

# a rank folder whose dump.json is missing
cp -r "$samples/npu_t/step0/rank0" "$TMP/rank0"
rm "$TMP/rank0/dump.json"
run "$cmp" -tp "$TMP/rank0" -gp "$samples/bench_t/step0/rank0" -o "$TMP/out"
expect_code 3
expect_err_line "msprobe-compare: error: $TMP/rank0: rank folder without dump.json (it holds: construct.json, dump_tensor_data, stack.json); was the dump interrupted?"

# verify and recompute say the same of the folders they find no dump.json in
run "$MSPROBE_BIN/msprobe-dump" verify "$TMP/empty"
expect_code 3
expect_err_line "msprobe-dump: error: $TMP/empty: empty folder; $expected"
run "$MSPROBE_BIN/msprobe-dump" recompute "$TMP/rank0" -o "$TMP/rec"
expect_code 3
expect_err_line "msprobe-dump: error: $TMP/rank0: rank folder without dump.json (it holds: construct.json, dump_tensor_data, stack.json); was the dump interrupted?"
# ... and of such a rank folder beside complete ones in a step: never the others checked and it skipped
mkdir -p "$TMP/step"
cp -r "$samples/npu_t/step0/rank0" "$TMP/step/rank0"
cp -r "$TMP/rank0" "$TMP/step/rank1"
interrupted="rank folder without dump.json (it holds: construct.json, dump_tensor_data, stack.json); was the dump interrupted?"
run "$MSPROBE_BIN/msprobe-dump" verify "$TMP/step"
expect_code 3
expect_err_line "msprobe-dump: error: $TMP/step/rank1: $interrupted"
run "$MSPROBE_BIN/msprobe-dump" recompute "$TMP/step" -o "$TMP/rec_step"
expect_code 3
expect_err_line "msprobe-dump: error: $TMP/step/rank1: $interrupted"
checks=$((checks + 1))
[ ! -e "$TMP/rec_step" ] || fail "recompute wrote $(ls "$TMP/rec_step") for a step with an interrupted rank"
run "$MSPROBE_BIN/msprobe-dump" verify "$data/kernel/npu"
expect_code 3
expect_err_line "msprobe-dump: error: $data/kernel/npu: an npy kernel dump tree (rank 0), not an msprobe dump; $expected"

# files of the wrong kind: a torch .pt given to convert, a csv given to stats
pt=$(find "$samples/npu_t/step0/rank0/dump_tensor_data" -name '*.pt' | sort | head -1)
run "$MSPROBE_BIN/msprobe-convert" -d "$pt" -o "$TMP/conv"
expect_code 3
expect_err_line "msprobe-convert: error: $pt: a torch .pt file (zip archive), not a kernel .bin dump"
printf 'new,original\na.npy,b.npy\n' >"$TMP/mapping.csv"
run "$MSPROBE_BIN/msprobe-dump" stats "$TMP/mapping.csv"
expect_code 3
expect_err_line "msprobe-dump: error: $TMP/mapping.csv: a text file (csv), not a tensor file (.npy, .pt or .bin)"

# usage errors are one line too
run "$cmp" -tp "$TMP/empty" --no-such-flag
expect_code 2
expect_one_error_line msprobe-compare
expect_err "; run msprobe-compare --help for usage"
run "$MSPROBE_BIN/msprobe-dump" verify
expect_code 2
expect_one_error_line msprobe-dump
run "$MSPROBE_BIN/msprobe-merge" -i "$TMP" -o "$TMP/m"
expect_code 2
expect_one_error_line msprobe-merge
run "$MSPROBE_BIN/msprobe-convert"
expect_code 2
expect_one_error_line msprobe-convert
run "$MSPROBE_BIN/msprobe" nosuch
expect_code 2
expect_err_line "msprobe: error: 'nosuch' is not a msprobe subcommand; this toolkit offers: compare, merge_result, parse, overflow_check, data2db; run msprobe --help for usage"

# msprobe parse's help shows its own default type, pt
run "$MSPROBE_BIN/msprobe" parse --help
expect_code 0
expect_out "TEXT:{npy,pt}=pt"
run "$MSPROBE_BIN/msprobe-convert" --help
expect_code 0
expect_out "TEXT:{npy,pt}=npy"
finish
