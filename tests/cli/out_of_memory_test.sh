#!/usr/bin/env bash
# Under an address-space limit, running out of memory ends as exit 4 "out of memory", never a crash:
# RapidJSON used to write through the null its allocator returned. And verify streams dump.json
# entries, so a 37 MB file of a million entries fits in 100 MB.
source "$(dirname "$0")/lib.sh"
cmp=$MSPROBE_BIN/msprobe-compare
# AddressSanitizer reserves terabytes of address space: a limit would stop it before main.
grep -qa AddressSanitizer "$cmp" && { echo "skipped under AddressSanitizer"; exit 77; }
# Under qemu-user the limit binds the emulator, which cannot even allocate its code buffer.
[ -n "${MSPROBE_EMULATED:-}" ] && { echo "skipped under an emulator"; exit 77; }
samples=$MSPROBE_ROOT/samples/dist2

mkdir -p "$TMP/v"
awk 'BEGIN { printf "{\"task\": \"tensor\", \"level\": \"L1\", \"framework\": \"pytorch\", \"data\": {";
             for (i = 0; i < 1000000; i++) printf "%s\"Functional.relu.%d.forward\": {}", (i ? ", " : ""), i;
             print "}}" }' >"$TMP/v/dump.json"
run bash -c "ulimit -v 100000; exec '$MSPROBE_BIN/msprobe-dump' verify -q '$TMP/v'"
expect_code 0

# A 40 MB stack.json is parsed whole: under 100 MB that runs out of memory.
cp -r "$samples/npu_t/step0/rank0" "$TMP/npu" && chmod -R u+w "$TMP/npu"
awk 'BEGIN { printf "{";
             for (i = 0; i < 300000; i++) printf "%s\"Functional.linear.%d.forward\": [\"File /a/b/c.py, line 1, in f, x = y(zzzzzzzz)\", \"File /a/b/c.py, line 1, in f, x = y(zzzzzzzz)\"]", (i ? ", " : ""), i;
             print "}" }' >"$TMP/npu/stack.json"
run bash -c "ulimit -v 100000; exec '$cmp' -q -tp '$TMP/npu/dump.json' -gp '$samples/bench_t/step0/rank0/dump.json' -o '$TMP/out'"
[ "$CODE" -lt 128 ] || fail "killed by signal $((CODE - 128)) instead of reporting out of memory"
expect_code 4
expect_one_error_line msprobe-compare
expect_err "msprobe-compare: error: out of memory"
finish
