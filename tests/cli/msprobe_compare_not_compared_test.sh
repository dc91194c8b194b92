#!/usr/bin/env bash
# Rows not compared (docs/compare.md §5.4): target rows without a golden counterpart, golden rows no
# target row matched and unreadable tensors are counted in summary.json, warned on stderr, failed by
# --fail-on warning, shown in JUnit; a pair in which no target row matched fails every gate.
source "$(dirname "$0")/lib.sh"
cmp=$MSPROBE_BIN/msprobe-compare
verl=$MSPROBE_ROOT/tests/data/verl/megatron/stat/train
l0=$MSPROBE_ROOT/tests/data/trend/real/r_l0_stat/step0/rank0
copy() { cp -r "$1" "$2" && chmod -R u+w "$2"; }
# summary.json's value at a python path, e.g. json_at "$f" '["counts"]["unmatched_target"]'
json_at() { python3 -c "import json,sys; print(json.dumps(json.load(open(sys.argv[1]))$2))" "$1"; }
# The rows of a dump.json, or of one entry of it, counted from the json as docs/compare.md §2.3 flattens
# it: every argument with a "type" is a row, and so is every null.
dump_rows() {
  python3 - "$@" <<'PY'
import json, sys
def rows(x):
    if x is None:
        return 1
    if isinstance(x, dict):
        return 1 if "type" in x else sum(rows(v) for v in x.values())
    return sum(rows(v) for v in x) if isinstance(x, list) else 0
data = json.load(open(sys.argv[1]))["data"]
print(rows(data[sys.argv[2]]) if len(sys.argv) > 2 else rows(data))
PY
}
expect_json() {
  checks=$((checks + 1))
  local got
  got=$(json_at "$1" "$2")
  [ "$got" = "$3" ] || fail "$1$2: expected $3, got $got"
}

# A target with a renamed module and an extra one, the same as the golden otherwise, so every matched
# row passes.
renamed=Module.module.module.decoder.final_layernorm.RMSNorm.forward.0
copy "$verl" "$TMP/renamed"
python3 - "$TMP/renamed/dump.json" "$renamed" <<'PY'
import json, sys
path, name = sys.argv[1], sys.argv[2]
dump = json.load(open(path))
data = dump["data"]
data2 = {}
for key, value in data.items():
    data2[key.replace("final_layernorm.RMSNorm", "final_norm.RMSNorm") if key == name else key] = value
data2["Module.module.module.extra.Identity.forward.0"] = data[name]
dump["data"] = data2
json.dump(dump, open(path, "w"), indent=1)
PY
entry_rows=$(dump_rows "$verl/dump.json" "$renamed")
unmatched_target=$((2 * entry_rows)) unmatched_golden=$entry_rows

run "$cmp" -tp "$TMP/renamed" -gp "$verl" -o "$TMP/r1" --csv
expect_code 0 "no gate: the warning line only"
csv=$(ls "$TMP"/r1/compare_result_*.csv)
first_line=$(grep -n '^Module.module.module.decoder.final_norm.RMSNorm.forward.0' "$csv" | head -1 | cut -d: -f1)
first_name=$(sed -n "${first_line}p" "$csv" | cut -d, -f1)
golden_first=$renamed.input.0
not_compared=$((unmatched_target + unmatched_golden))
expect_err "msprobe-compare: warning: $not_compared row(s) not compared: $unmatched_target target row(s) without a golden counterpart (first: $first_name, $csv row $first_line), $unmatched_golden golden row(s) matched by no target row (first: $golden_first), 0 unreadable tensor(s)"
[ "$(grep -c 'row(s) not compared' <<<"$ERR")" -eq 1 ] || fail "warned more than once: $ERR"
checks=$((checks + 1))
# the csv stays msprobe's: those rows have Bench Name N/A and Result pass
grep -q "^$first_name,N/A,.*,pass," "$csv" || fail "unmatched row in the csv: $(sed -n "${first_line}p" "$csv")"
checks=$((checks + 1))
s=$TMP/r1/summary.json
expect_json "$s" '["counts"]["unmatched_target"]' "$unmatched_target"
expect_json "$s" '["counts"]["unmatched_golden"]' "$unmatched_golden"
expect_json "$s" '["counts"]["unreadable_tensors"]' 0
expect_json "$s" '["pairs"][0]["unmatched"]["target_rows"]' "$unmatched_target"
expect_json "$s" '["pairs"][0]["unmatched"]["golden_rows"]' "$unmatched_golden"
expect_json "$s" '["pairs"][0]["unmatched"]["first_golden"]' "\"$golden_first\""
expect_json "$s" '["pairs"][0]["unmatched"]["first_target"]["row"]' "$first_line"
expect_json "$s" '["pairs"][0]["unmatched"]["first_target"]["npu_name"]' "\"$first_name\""
rows=$(($(wc -l <"$csv") - 1))
expect_json "$s" '["pairs"][0]["matched_rows"]' "$((rows - unmatched_target))"
expect_json "$s" '["not_compared"]["rows"]' "$not_compared"

run "$cmp" -tp "$TMP/renamed" -gp "$verl" -o "$TMP/r2" --fail-on error --html
expect_code 0 "--fail-on error: every matched row passes"
# the xlsx summary sheet and the page show the counts
# A2:B2 counts the passes compared: the csv's Result pass rows less the unmatched ones (Result pass too)
csv_passes=$(python3 -c "import csv,sys; print(sum(r['Result'] == 'pass' for r in csv.DictReader(open(sys.argv[1]))))" "$TMP"/r2/compare_result_*.csv)
python3 - "$TMP"/r2/compare_result_*.xlsx "$unmatched_target" "$unmatched_golden" "$((csv_passes - unmatched_target))" <<'PY' || fail "xlsx summary sheet"
import re, sys, zipfile
book = zipfile.ZipFile(sys.argv[1])
names = sorted(n for n in book.namelist() if n.startswith("xl/worksheets/sheet"))
sheet = book.read(names[-1]).decode()
strings = re.findall(r"<t[^>]*>([^<]*)</t>", book.read("xl/sharedStrings.xml").decode()) if "xl/sharedStrings.xml" in book.namelist() else []
def cell(ref):
    m = re.search(rf'<c r="{ref}"[^>]*?(?:/>|>(.*?)</c>)', sheet)
    body = m[1] or ""
    v = re.search(r"<v>([^<]*)</v>", body)
    if 't="s"' in m[0]:
        return strings[int(v[1])]
    t = re.search(r"<t[^>]*>([^<]*)</t>", body)
    return t[1] if t else v[1]
got = [(cell(f"A{r}"), cell(f"B{r}")) for r in (2, 6, 7, 8)]
want = [("pass", sys.argv[4]), ("not compared: no golden counterpart", sys.argv[2]),
        ("golden rows matched by no target row", sys.argv[3]), ("unreadable tensors", "0")]
assert got == want, (got, want)
PY
checks=$((checks + 1))
grep -qF "\"notCompared\":[$unmatched_target,$unmatched_golden,0]" "$TMP"/r2/compare_report_*.html \
  || fail "page counts: $(grep -o '"notCompared":[^]]*' "$TMP"/r2/compare_report_*.html)"
checks=$((checks + 1))
# the page's pass count is summary.json's, the unmatched rows (Result pass in the tables) left out
run python3 "$(dirname "$0")/html_check.py" "$(ls "$TMP"/r2/compare_report_*.html)" "$TMP/r2/summary.json"
expect_code 0 "html_check.py: $ERR"
run "$cmp" -tp "$TMP/renamed" -gp "$verl" -o "$TMP/r3" --csv --fail-on warning --junit "$TMP/r3/junit.xml"
expect_code 1 "--fail-on warning fails on rows not compared"
csv=$(ls "$TMP"/r3/compare_result_*.csv)
expect_err "msprobe-compare: gate failed (--fail-on warning): $not_compared row(s) not compared; first: $csv row $first_line: $first_name: no golden counterpart"
grep -q '<testcase name="not compared" classname="' "$TMP/r3/junit.xml" || fail "no not-compared testcase: $(cat "$TMP/r3/junit.xml")"
grep -q "<failure message=\"$unmatched_target target row(s) without a golden counterpart" "$TMP/r3/junit.xml" \
  || fail "not compared is no failure under --fail-on warning: $(cat "$TMP/r3/junit.xml")"
checks=$((checks + 2))
run "$cmp" -tp "$TMP/renamed" -gp "$verl" -o "$TMP/r4" --csv --fail-on error --junit "$TMP/r4/junit.xml"
expect_code 0
grep -q "<skipped message=\"$unmatched_target target row(s) without a golden counterpart" "$TMP/r4/junit.xml" \
  || fail "not compared is not skipped without a warning gate: $(cat "$TMP/r4/junit.xml")"
grep -q 'skipped="1"' "$TMP/r4/junit.xml" || fail "suite skipped count: $(cat "$TMP/r4/junit.xml")"
checks=$((checks + 2))

# An L0 dump against an L1 dump: no target row matches; every gate fails, naming the levels.
target_rows=$(dump_rows "$l0/dump.json") golden_rows=$(dump_rows "$verl/dump.json")
no_match="rank0: no target row matched a golden row ($target_rows target rows, $golden_rows golden rows): the target is level L0 and the golden L1: dump both at the same level"
run "$cmp" -tp "$l0" -gp "$verl" -o "$TMP/l0" --csv
expect_code 0 "no gate"
expect_err "msprobe-compare: warning: $((target_rows + golden_rows)) row(s) not compared: $target_rows target row(s) without a golden counterpart (first: Module.model.embed.Linear.forward.0.input.0, "
for gate in "--fail-on error" "--fail-on warning"; do
  run "$cmp" -tp "$l0" -gp "$verl" -o "$TMP/l0g" --csv $gate --junit "$TMP/l0g/junit.xml"
  expect_code 1 "$gate with no row matched"
  expect_err "msprobe-compare: gate failed ($gate): $no_match"
  grep -qF "<failure message=\"$no_match\" type=\"not compared\">" "$TMP/l0g/junit.xml" || fail "junit: $(cat "$TMP/l0g/junit.xml")"
  checks=$((checks + 1))
done
run "$cmp" -tp "$l0" -gp "$verl" -o "$TMP/l0da" -da --fail-on-first-diff
expect_code 1 "--fail-on-first-diff with no row matched"
expect_err "msprobe-compare: gate failed (--fail-on-first-diff): $no_match"
if command -v xmllint >/dev/null; then
  for xml in "$TMP/r3/junit.xml" "$TMP/r4/junit.xml" "$TMP/l0g/junit.xml"; do
    run xmllint --noout --schema "$MSPROBE_ROOT/tests/data/triage/junit.xsd" "$xml"
    expect_code 0 "$xml vs junit.xsd"
  done
fi
s=$TMP/l0/summary.json
expect_json "$s" '["pairs"][0]["matched_rows"]' 0
expect_json "$s" '["counts"]["unmatched_target"]' "$target_rows"
expect_json "$s" '["counts"]["unmatched_golden"]' "$golden_rows"
# the same levels: the hint asks whether the models differ
mkdir "$TMP/l1" && copy "$l0" "$TMP/l1/rank0"
sed -i 's/"level": "L0"/"level": "L1"/' "$TMP/l1/rank0/dump.json"
run "$cmp" -tp "$TMP/l1/rank0" -gp "$verl" -o "$TMP/same" --csv --fail-on error
expect_code 1
expect_err "msprobe-compare: gate failed (--fail-on error): rank0: no target row matched a golden row ($target_rows target rows, $golden_rows golden rows): dumps of different models?"

# A tensor dump whose dump_tensor_data/ was removed, against itself whole: every tensor row is unreadable,
# every gate fails on them, and no count calls them a pass (the csv keeps msprobe's "unsupported" rows,
# Result pass).
samples=$MSPROBE_ROOT/samples/dist2
copy "$samples/bench_t/step0/rank0" "$TMP/no_tensors"
rm -r "$TMP/no_tensors/dump_tensor_data"
tensors=$(python3 - "$TMP/no_tensors/dump.json" <<'PY'
import json, sys
def files(x):
    if isinstance(x, dict):
        return (1 if x.get("type") == "torch.Tensor" and "data_name" in x else 0) + sum(files(v) for v in x.values())
    return sum(files(v) for v in x) if isinstance(x, list) else 0
print(files(json.load(open(sys.argv[1]))["data"]))
PY
)
for gate in "--fail-on warning" "--fail-on error"; do
  rm -rf "$TMP/nt"
  run "$cmp" -tp "$TMP/no_tensors" -gp "$samples/bench_t/step0/rank0" -o "$TMP/nt" --csv $gate --junit "$TMP/nt/junit.xml"
  expect_code 1 "unreadable tensors fail $gate"
  expect_err "msprobe-compare: warning: $tensors row(s) not compared: 0 target row(s) without a golden counterpart, 0 golden row(s) matched by no target row, $tensors unreadable tensor(s) (first: $TMP/no_tensors/dump_tensor_data/"
  expect_err "msprobe-compare: gate failed ($gate): $tensors tensor(s) could not be read, their rows not compared; first: $TMP/no_tensors/dump_tensor_data/"
  grep -q "<failure message=\"0 target row(s) without a golden counterpart, 0 golden row(s) matched by no target row, $tensors unreadable" "$TMP/nt/junit.xml" \
    || fail "unreadable tensors are no JUnit failure under $gate: $(cat "$TMP/nt/junit.xml")"
  checks=$((checks + 1))
done
expect_json "$TMP/nt/summary.json" '["counts"]["unreadable_tensors"]' "$tensors"
expect_json "$TMP/nt/summary.json" '["pairs"][0]["unreadable_tensors"]["rows"]' "$tensors"
# a pass is a row compared: the csv's Result pass rows, less the unreadable ones
csv=$(ls "$TMP"/nt/compare_result_*.csv)
csv_passes=$(python3 -c "import csv,sys; print(sum(r['Result'] == 'pass' for r in csv.DictReader(open(sys.argv[1]))))" "$csv")
expect_json "$TMP/nt/summary.json" '["counts"]["pass"]' "$((csv_passes - tensors))"
expect_err "compared 1 pair(s): $(($(wc -l <"$csv") - 1)) rows, $((csv_passes - tensors)) pass, 0 warning, 0 error, $tensors not compared"

# A pair with a side of no rows (data {}) is skipped, as msprobe writes no file for it; its rows count as
# not compared, the warning names the empty side, and every gate fails.
copy "$samples/npu_t/step0" "$TMP/one_empty"
python3 - "$TMP/one_empty/rank1/dump.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["data"] = {}; json.dump(d, open(sys.argv[1], "w"))
PY
rank1_rows=$(dump_rows "$samples/bench_t/step0/rank1/dump.json")
for sides in "one_empty bench" "bench one_empty"; do
  set -- $sides
  t=$TMP/one_empty; g=$samples/bench_t/step0
  [ "$1" = bench ] && { t=$samples/bench_t/step0; g=$TMP/one_empty; }
  side=$([ "$1" = one_empty ] && echo "golden" || echo "target")
  run "$cmp" -tp "$t" -gp "$g" -o "$TMP/e_$1" --csv
  expect_code 0 "no gate"
  reason="rank1: $TMP/one_empty/rank1/dump.json: no rows to compare ($rank1_rows in the $side dump); nothing compared (msprobe writes no file then)"
  expect_err "msprobe-compare: warning: $reason"
  for gate in "--fail-on error" "--fail-on warning"; do
    run "$cmp" -tp "$t" -gp "$g" -o "$TMP/eg_$1" --csv $gate --junit "$TMP/eg_$1/junit.xml"
    expect_code 1 "$gate with an empty side"
    expect_err "msprobe-compare: gate failed ($gate): $reason"
    grep -qF "<testsuite name=\"rank1\" tests=\"1\" failures=\"1\"" "$TMP/eg_$1/junit.xml" || fail "junit: $(cat "$TMP/eg_$1/junit.xml")"
    checks=$((checks + 1))
  done
done
expect_json "$TMP/e_one_empty/summary.json" '["counts"]["unmatched_target"]' 0
expect_json "$TMP/e_one_empty/summary.json" '["counts"]["unmatched_golden"]' "$rank1_rows"
expect_json "$TMP/e_bench/summary.json" '["counts"]["unmatched_target"]' "$rank1_rows"
expect_json "$TMP/e_bench/summary.json" '["pairs"][1]["skipped"]' "\"$TMP/one_empty/rank1/dump.json: no rows to compare ($rank1_rows in the target dump); nothing compared (msprobe writes no file then)\""

# A rank whose dump.json is missing on one side (msprobe skips it), and a mix dump's step and part on one
# side only: warned, listed in summary.json, and every gate fails.
copy "$samples/bench_t/step0" "$TMP/no_rank1"
rm "$TMP/no_rank1/rank1/dump.json"
run "$cmp" -tp "$samples/npu_t/step0" -gp "$TMP/no_rank1" -o "$TMP/nr" --csv --fail-on error --junit "$TMP/nr/junit.xml"
expect_code 1 "a rank without its dump.json"
missing="$TMP/no_rank1/rank1: no dump.json ($samples/npu_t/step0/rank1 has one); its rank is not compared"
expect_err "msprobe-compare: warning: $missing"
expect_err "msprobe-compare: gate failed (--fail-on error): 1 input(s) not compared; first: $missing"
expect_json "$TMP/nr/summary.json" '["not_compared"]["inputs"]' "[\"$missing\"]"
grep -qF '<testsuite name="inputs" tests="1" failures="1"' "$TMP/nr/junit.xml" || fail "junit: $(cat "$TMP/nr/junit.xml")"
checks=$((checks + 1))
if command -v xmllint >/dev/null; then
  for xml in "$TMP/nr/junit.xml" "$TMP/eg_bench/junit.xml"; do
    run xmllint --noout --schema "$MSPROBE_ROOT/tests/data/triage/junit.xsd" "$xml"
    expect_code 0 "$xml vs junit.xsd"
  done
fi
mkdir -p "$TMP/mix_t/pynative" "$TMP/mix_t/graph" "$TMP/mix_g/pynative"
copy "$samples/npu_t/step0" "$TMP/mix_t/pynative/step0"
copy "$samples/npu_t/step0" "$TMP/mix_t/pynative/step1"
copy "$samples/npu_t/step0" "$TMP/mix_t/graph/step0"
copy "$samples/bench_t/step0" "$TMP/mix_g/pynative/step0"
run "$cmp" -tp "$TMP/mix_t" -gp "$TMP/mix_g" -o "$TMP/mix" --csv --fail-on-first-diff -da
expect_code 1 "a mix dump's part and step on one side only"
expect_err "msprobe-compare: warning: $TMP/mix_t/graph: no graph part in $TMP/mix_g; not compared"
expect_err "msprobe-compare: warning: $TMP/mix_t/pynative/step1: no such step in $TMP/mix_g/pynative; not compared"
expect_err "msprobe-compare: gate failed (--fail-on-first-diff): 2 input(s) not compared; first: $TMP/mix_t/graph: no graph part in $TMP/mix_g; not compared"
run "$cmp" -tp "$TMP/mix_t" -gp "$TMP/mix_g" -o "$TMP/mix0" --csv
expect_code 0 "no gate"

# The kernel compare: a (rank, step) on one side only, an id --rank asks for that neither side has, and
# an unreadable .npy counted as such (one gate line, though msprobe's messages hold line breaks).
kernel=$MSPROBE_ROOT/tests/data/kernel
copy "$kernel/npu" "$TMP/kt"
copy "$TMP/kt/rank_0/Net/0/0" "$TMP/kt/rank_0/Net/0/1"
run "$cmp" -tp "$TMP/kt" -gp "$kernel/bench" --rank 0,7 -o "$TMP/k1" --fail-on error
expect_code 1 "kernel inputs on one side only"
expect_err "msprobe-compare: warning: $TMP/kt/rank_0/Net/0/1: rank 0 step 1 has no counterpart in $kernel/bench; not compared"
expect_err "msprobe-compare: warning: --rank 7: no kernel dump directory of it (among the steps selected) in $TMP/kt or $kernel/bench; not compared"
expect_json "$TMP/k1/summary.json" '["not_compared"]["inputs"][1]' "\"--rank 7: no kernel dump directory of it (among the steps selected) in $TMP/kt or $kernel/bench; not compared\""
rm -r "$TMP/kt/rank_0/Net/0/1"
npy=$TMP/kt/rank_0/Net/0/0/Add.Default_Add-op0.0.0.100.output.0.DefaultFormat.float32.npy
truncate -s 150 "$npy"
run "$cmp" -tp "$TMP/kt" -gp "$kernel/bench" --rank 0 -o "$TMP/k2" --fail-on error
expect_code 1 "an unreadable kernel tensor"
expect_json "$TMP/k2/summary.json" '["counts"]["unreadable_tensors"]' 1
checks=$((checks + 1))
[ "$(grep -c 'gate failed' <<<"$ERR")" -eq 1 ] && grep -q "^msprobe-compare: gate failed (--fail-on error): 1 tensor(s) could not be read, their rows not compared; first: $npy: " <<<"$ERR" \
  || fail "kernel gate line: $ERR"
# a target statistic.csv of its header alone: nothing compared, said so
copy "$kernel/stat_npu" "$TMP/ks"
for csv in $(find "$TMP/ks" -name statistic.csv); do head -1 "$csv" >"$csv.h" && mv "$csv.h" "$csv"; done
golden_stat_rows=$(($(find "$kernel/stat_bench" -name statistic.csv -exec cat {} + | grep -vc '^Op Type')))
run "$cmp" -tp "$TMP/ks" -gp "$kernel/stat_bench" --rank 0 -o "$TMP/ks_out" --fail-on error
expect_code 1 "a kernel target without rows"
expect_err "msprobe-compare: gate failed (--fail-on error): rank0_step0: the target has no rows ($golden_stat_rows golden rows): nothing compared"
run "$cmp" -tp "$TMP/kt" -gp "$kernel/bench" --rank 0 -o "$TMP/k3" --fail-on warning
expect_code 1
checks=$((checks + 1))
[ "$(grep -c '' <<<"$(grep -A5 'gate failed' <<<"$ERR")")" -eq 1 ] || fail "the gate line is not one line: $ERR"

finish
