#!/usr/bin/env bash
# msprobe-convert end to end: every fixture .bin converted and compared byte for byte with the .npy
# files numpy wrote (tests/data/bin/gen_bin_fixtures.py); long names, malformed inputs, exit codes.
source "$(dirname "$0")/lib.sh"
convert=$MSPROBE_BIN/msprobe-convert
data=$MSPROBE_ROOT/tests/data/bin

run "$convert" --help
expect_code 0
expect_out "Examples:"
expect_out "Exit codes"
run "$convert" --version
expect_code 0
run "$convert"
expect_code 2
run "$convert" -d "$data/cases" -t bin
expect_code 2

# A whole tree: every expected file appears, identical to numpy's, and nothing else is written.
cp -r "$data/cases" "$TMP/tree"
mkdir -p "$TMP/tree/rank1" && cp "$data/cases/Add.Default_Add-op1.3.2.1735011096403740" "$TMP/tree/rank1/"
echo "not a dump" >"$TMP/tree/notes.txt"
before=$(cd "$TMP/tree" && md5sum $(find . -type f | sort))
run "$convert" -d "$TMP/tree" -o "$TMP/out" -j 2
expect_code 0
expect_err "20 files, 44 tensors written"
expect_err "3 slots skipped (buffer/workspace: 2, no decoder for STRING (13): 1)"
expect_err "output 0: device layout kept: no converter for FRACTAL_ZN_LSTM"
for f in "$data"/expected/*.npy; do
  checks=$((checks + 1))
  cmp -s "$f" "$TMP/out/$(basename "$f")" || fail "$(basename "$f") differs from numpy's"
done
checks=$((checks + 1))
[ "$(ls "$TMP/out" | grep -c '\.npy$')" -eq 42 ] || fail "expected 42 .npy files in $TMP/out"
checks=$((checks + 1))
cmp -s "$data/expected/Add.Default_Add-op1.3.2.1735011096403740.output.0.NCHW.FLOAT.npy" \
  "$TMP/out/rank1/Add.Default_Add-op1.3.2.1735011096403740.output.0.NCHW.FLOAT.npy" || fail "subdirectory not mirrored"
checks=$((checks + 1))
[ "$before" = "$(cd "$TMP/tree" && md5sum $(find . -type f | sort))" ] || fail "inputs were modified"
checks=$((checks + 1))
[ -z "$(find "$TMP/out" -name '*.tmp*')" ] || fail "temporary files left behind"

# One file, quiet: no summary, no notes.
run "$convert" -q -d "$data/cases/Conv2D.Default_NC1HWC0-op1.1.2.1735011096403740" -o "$TMP/one"
expect_code 0
checks=$((checks + 1))
[ -z "$OUT$ERR" ] || fail "-q printed: $OUT $ERR"
checks=$((checks + 1))
cmp -s "$data/expected/Conv2D.Default_NC1HWC0-op1.1.2.1735011096403740.output.0.NCHW.FLOAT16.npy" \
  "$TMP/one/Conv2D.Default_NC1HWC0-op1.1.2.1735011096403740.output.0.NCHW.FLOAT16.npy" || fail "single file differs"

# Quiet, with slots it cannot convert: -q hides the summary, never the warnings about data not written.
cast="$data/cases/Cast.Default_dtypes-op1.1.2.1735011096403740"
run "$convert" -q -d "$cast" -o "$TMP/cast" -t pt
expect_code 0
checks=$((checks + 1))
[ -z "$OUT" ] || fail "-q printed on stdout: $OUT"
checks=$((checks + 1))
[ "$ERR" = "msprobe-convert: warning: $cast: input 10: skipped: uint64 has no torch dtype (-t npy writes it)
msprobe-convert: warning: $cast: output 5: skipped: dtype STRING (13) has no decoder
msprobe-convert: warning: $cast: buffer 0: skipped (raw on-chip data, no dtype)
msprobe-convert: warning: $cast: workspace 0: skipped (raw on-chip data, no dtype)" ] || fail "-q on $cast printed: $ERR"

# --keep-device-format: the device shape, and the device format in the name.
run "$convert" -d "$data/cases/Conv2D.Default_NC1HWC0-op1.1.2.1735011096403740" -o "$TMP/keep" --keep-device-format
expect_code 0
checks=$((checks + 1))
head -c 128 "$TMP/keep/Conv2D.Default_NC1HWC0-op1.1.2.1735011096403740.output.0.NC1HWC0.FLOAT16.npy" |
  grep -q "'shape': (2, 2, 3, 5, 16)" || fail "device layout not kept"

# Names over 255 bytes are hashed and listed in mapping.csv (new,original), idempotently.
long="Conv2D.$(printf 'x%.0s' $(seq 1 220)).1.2.1735011096403740"
mkdir -p "$TMP/long" && cp "$data/cases/Conv2D.Default_NHWC-op1.1.2.1735011096403740" "$TMP/long/$long"
run "$convert" -d "$TMP/long" -o "$TMP/long_out"
expect_code 0
run "$convert" -d "$TMP/long" -o "$TMP/long_out"
expect_code 0
checks=$((checks + 1))
[ "$(wc -l <"$TMP/long_out/mapping.csv")" -eq 1 ] || fail "mapping.csv: $(cat "$TMP/long_out/mapping.csv")"
new=$(cut -d, -f1 "$TMP/long_out/mapping.csv")
checks=$((checks + 1))
grep -q ",$long.output.0.NCHW.FLOAT16.npy$" "$TMP/long_out/mapping.csv" || fail "mapping.csv lacks the original name"
checks=$((checks + 1))
cmp -s "$TMP/long_out/$new" "$data/expected/Conv2D.Default_NHWC-op1.1.2.1735011096403740.output.0.NCHW.FLOAT16.npy" ||
  fail "renamed file differs"

# Malformed inputs: one error line naming the file, exit 3, nothing written.
for f in "$data"/malformed/*; do
  run "$convert" -d "$f" -o "$TMP/bad"
  expect_code 3 "$(basename "$f")"
  expect_one_error_line msprobe-convert
  expect_err "$f: "
done
run "$convert" -d "$data/malformed/Add.truncated.1.2.1735011096403740" -o "$TMP/bad"
expect_err "truncated: the header declares data up to offset 93, the file has 90 bytes; incomplete: output 0"
run "$convert" -d "$data/malformed/intensor0.bin" -o "$TMP/bad"
expect_err "ATB tensor .bin"
checks=$((checks + 1))
[ -z "$(find "$TMP/bad" -type f 2>/dev/null)" ] || fail "files written for malformed input"
run "$convert" -d "$TMP/missing" -o "$TMP/bad"
expect_code 3
expect_one_error_line msprobe-convert
# An -o that is a file (or below one): one line, checked once before any file, nothing converted.
printf 'x' >"$TMP/outfile"
for o in "$TMP/outfile" "$TMP/outfile/sub"; do
  run "$convert" -q -d "$data/cases" -o "$o"
  expect_code 3 "-o $o"
  expect_err_line "msprobe-convert: error: $o: cannot create the folder $o (Not a directory): choose another -o"
done
checks=$((checks + 1))
[ "$(cat "$TMP/outfile")" = x ] || fail "the file given as -o was changed"
# An -o at or inside the input: refused (exit 3), the input left as it was.
mkdir -p "$TMP/in" && cp "$data/cases/Add.Default_Add-op1.3.2.1735011096403740" "$TMP/in/"
for o in "$TMP/in" "$TMP/in/out"; do
  run "$convert" -d "$TMP/in" -o "$o"
  expect_code 3 "-o $o"
  expect_err_line "msprobe-convert: error: $o: the output would land inside the input $TMP/in"
done
checks=$((checks + 1))
[ "$(ls "$TMP/in")" = Add.Default_Add-op1.3.2.1735011096403740 ] || fail "convert wrote into its input: $(ls "$TMP/in")"
# A tree with one bad file: the others are converted, the bad one reported, exit 3.
mkdir -p "$TMP/mixed" && cp "$data/malformed/Add.truncated.1.2.1735011096403740" "$data/cases/Add.Default_Add-op1.3.2.1735011096403740" "$TMP/mixed/"
run "$convert" -d "$TMP/mixed" -o "$TMP/mixed_out"
expect_code 3
expect_err "Add.truncated.1.2.1735011096403740: truncated"
expect_err "1 files, 2 tensors written"
expect_err "1 files failed"

# msprobe-dump stats on a .bin: one line per input/output slot (the §1.5 vector: fp16 0..5).
run "$MSPROBE_BIN/msprobe-dump" stats "$data/cases/Add.Default_Add-op1.3.2.1735011096403740"
expect_code 0
expect_out "Add.Default_Add-op1.3.2.1735011096403740:input.0  float16  [2, 3]  max=5 min=0 mean=2.5"
expect_out "Add.Default_Add-op1.3.2.1735011096403740:output.0  float32  [1, 1, 1, 2, 16]  max=21 min=0"
run "$MSPROBE_BIN/msprobe-dump" stats "$data/malformed/Add.nano.1.2.1735011096403740"
expect_code 3
expect_one_error_line msprobe-dump
finish
