#!/usr/bin/env bash
# Text Python would refuse never reaches an output: invalid UTF-8 in a dump.json is an input error
# (exit 3, as json.load refuses the file), a merge input that is not UTF-8 is dropped with a warning,
# an escaped NUL in a data_name is refused rather than cutting the name short, and the non-characters
# U+FFFE/U+FFFF reach the xlsx escaped.
source "$(dirname "$0")/lib.sh"
samples=$MSPROBE_ROOT/samples/dist2
npu=$samples/npu_t/step0/rank0
bench=$samples/bench_t/step0/rank0
copy() { cp -r "$1" "$2" && chmod -R u+w "$2"; }

# raw bytes \xff\xfe in an API key, and an overlong '/' (\xc0\xaf) in a value
for bytes in '\xff\xfe' '\xc0\xaf'; do
  copy "$npu" "$TMP/bad"
  sed -i "s/\"Functional.linear.0.forward\"/\"Functional.linear$(printf "$bytes").0.forward\"/" "$TMP/bad/dump.json"
  run "$MSPROBE_BIN/msprobe-compare" -tp "$TMP/bad/dump.json" -gp "$bench/dump.json" -o "$TMP/o"
  expect_code 3
  expect_one_error_line msprobe-compare
  expect_err "bad/dump.json: invalid UTF-8 in the string that ends before byte"
  [ ! -e "$TMP/o" ] || [ -z "$(ls "$TMP/o")" ] || fail "output written for a refused dump: $(ls "$TMP/o")"
  rm -rf "$TMP/bad" "$TMP/o"
done

# an escaped NUL inside a data_name: refused by name, not truncated to another file's name
copy "$npu" "$TMP/nul"
sed -i 's/"data_name": "Functional.linear.0.forward.input.0.pt"/"data_name": "Functional.linear.0.forward.input.0.pt\\u0000x"/' "$TMP/nul/dump.json"
grep -q 'input.0.pt\\u0000x' "$TMP/nul/dump.json" || fail "fixture edit did not apply"
run "$MSPROBE_BIN/msprobe-dump" verify "$TMP/nul"
expect_code 1
expect_err 'Functional.linear.0.forward.input.0.pt\0x  Functional.linear.0.forward.input_args.0  refused data_name: contains a NUL byte'

# the non-characters U+FFFE and U+FFFF are valid UTF-8 but not XML characters: in a stack line they
# reach the xlsx as Excel's escapes, and every part stays well-formed XML
copy "$npu" "$TMP/nonchar"
sed -i '0,/File /s//File \\ufffe\\uffff /' "$TMP/nonchar/stack.json"
grep -q 'ufffe' "$TMP/nonchar/stack.json" || fail "the stack line was not changed"
run "$MSPROBE_BIN/msprobe-compare" -q -tp "$TMP/nonchar" -gp "$bench" -o "$TMP/nonchar_out" --xlsx
expect_code 0
run python3 -c '
import sys, zipfile, xml.dom.minidom
with zipfile.ZipFile(sys.argv[1]) as z:
    parts = [n for n in z.namelist() if n.endswith(".xml")]
    for n in parts: xml.dom.minidom.parseString(z.read(n))
    sheet = z.read("xl/worksheets/sheet1.xml").decode()
print("escaped" if "_xFFFE__xFFFF_" in sheet else "missing", len(parts))' "$(ls "$TMP"/nonchar_out/compare_result_*.xlsx)"
expect_code 0
expect_out "escaped"

# a merge input that is not UTF-8 is dropped on its own with a warning naming it
mkdir -p "$TMP/m"
run "$MSPROBE_BIN/msprobe-compare" -q -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/m" --csv
expect_code 0
bad=$(ls "$TMP"/m/compare_result_rank1_*.csv)
printf 'Functional.linear\xff.0.forward.input.0,x\n' >>"$bad"
printf 'api:\n- Functional.linear\n' >"$TMP/merge.yaml"
run "$MSPROBE_BIN/msprobe-merge" -i "$TMP/m" -o "$TMP/mo" -config "$TMP/merge.yaml"
expect_err "$bad: cannot be read (invalid UTF-8 at byte"
finish
