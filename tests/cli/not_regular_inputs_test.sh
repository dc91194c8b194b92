#!/usr/bin/env bash
# Inputs that are not regular files (a FIFO, a device) are refused at once, never waited on: a FIFO
# opened for reading would block until a writer comes. `timeout` turns a hang into a failure.
source "$(dirname "$0")/lib.sh"
samples=$MSPROBE_ROOT/samples/dist2
npu=$samples/npu_t/step0/rank0
bench=$samples/bench_t/step0/rank0
t() { run timeout 20 "$@"; [ "$CODE" -ne 124 ] || fail "hung on a FIFO: $*"; }

# dump.json as a FIFO, or a device: exit 3, one line naming it
mkfifo "$TMP/dump.json"
t "$MSPROBE_BIN/msprobe-compare" -tp "$TMP/dump.json" -gp "$bench/dump.json" -o "$TMP/o1"
expect_code 3
expect_one_error_line msprobe-compare
expect_err "$TMP/dump.json: not a regular file"
mkdir "$TMP/dev" && ln -s /dev/zero "$TMP/dev/dump.json"
t "$MSPROBE_BIN/msprobe-compare" -tp "$TMP/dev/dump.json" -gp "$bench/dump.json" -o "$TMP/o1"
expect_code 3
expect_err "$TMP/dev/dump.json: not a regular file"

# a tensor file as a FIFO: compare goes on (the row is unsupported, as msprobe reports an unreadable
# tensor), verify reports it unreadable
cp -r "$npu" "$TMP/r0" && chmod -R u+w "$TMP/r0"
fifo=$TMP/r0/dump_tensor_data/Functional.linear.0.forward.input.0.pt
[ -e "$fifo" ] || fail "sample tensor missing: $fifo"
rm "$fifo" && mkfifo "$fifo"
t "$MSPROBE_BIN/msprobe-compare" -q -tp "$TMP/r0" -gp "$bench" -o "$TMP/o2" --csv
expect_code 0
checks=$((checks + 1))
grep -q '^Functional.linear.0.forward.input.0,.*,unsupported,unsupported,' "$TMP"/o2/*.csv \
  || fail "the FIFO tensor's row is not unsupported"
t "$MSPROBE_BIN/msprobe-dump" verify "$TMP/r0"
expect_code 1
expect_err "not a regular file"

# a merge input and a kernel dump as FIFOs
mkdir "$TMP/m"
printf 'api:\n- Functional.linear\n' >"$TMP/merge.yaml"
mkfifo "$TMP/m/compare_result_rank0_20260101000000.xlsx"
t "$MSPROBE_BIN/msprobe-merge" -i "$TMP/m" -o "$TMP/mo" -config "$TMP/merge.yaml"
[ "$CODE" -ne 0 ] || fail "merge of a FIFO succeeded"
expect_err "not a regular file"
mkfifo "$TMP/Add.Default_Add-op1.3.2.1735011096403740"
t "$MSPROBE_BIN/msprobe-convert" -d "$TMP/Add.Default_Add-op1.3.2.1735011096403740" -o "$TMP/co"
expect_code 3
expect_err "not a regular file"
finish
