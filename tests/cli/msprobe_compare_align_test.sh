#!/usr/bin/env bash
# msprobe-compare --align end to end (docs/compare.md §3.8): without the flag every output (csv, xlsx,
# json, html, -da's json) is byte for byte what the program wrote before --align existed, checked
# against the checksums tests/data/align/outputs_without_align.sha256 recorded then; with it every
# output carries the Match column, in tensor, statistics and md5 mode, with -da and with -am; and the
# flag's usage errors.
# `--record`: writes the checksums of this build's outputs without --align instead (run it with the
# build before a change meant to leave them alone).
source "$(dirname "$0")/lib.sh"
cmp=$MSPROBE_BIN/msprobe-compare
sums=$MSPROBE_ROOT/tests/data/align/outputs_without_align.sha256

# The inputs under relative paths (outputs name them), in a directory of their own.
mkdir -p "$TMP/in"
cp -r "$MSPROBE_ROOT/samples/dist2" "$MSPROBE_ROOT/tests/data/align" "$TMP/in/"
cd "$TMP/in" || fail "no input directory"
sm=align/softmax

# compare NAME ARGS...: one run's outputs in $TMP/out/NAME, normalized (scripts/normalize_outputs.sh).
compare() {
  local name=$1; shift
  mkdir -p "$TMP/out/$name"
  run "$cmp" -q "$@" -o "../out/$name"
  expect_code 0 "$name"
  rm -f "$TMP/out/$name/summary.json"  # names the tool's version
  "$MSPROBE_ROOT/scripts/normalize_outputs.sh" "$TMP/out/$name"
}

compare dist2 -tp dist2/npu_t/step0 -gp dist2/bench_t/step0 --csv --xlsx --json --html
compare dist2_da -tp dist2/npu_t/step0 -gp dist2/bench_t/step0 -da --csv --xlsx
compare statistics -tp $sm/statistics/target/dump.json -gp $sm/statistics/golden/dump.json --csv --xlsx --json --html
compare md5 -tp $sm/md5/target/dump.json -gp $sm/md5/golden/dump.json --csv --json
compare tensor -tp $sm/tensor/target/dump.json -gp $sm/tensor/golden/dump.json --csv --json --html
compare fuzzy -tp $sm/statistics/target/dump.json -gp $sm/statistics/golden/dump.json -fm --csv
compare mindspore -tp align/mindspore/target/dump.json -gp align/shift/golden/dump.json --csv --json
compare mindspore_am -tp align/mindspore/target/dump.json -gp align/shift/golden/dump.json -am --csv --json
(cd "$TMP/out" && find . -type f | LC_ALL=C sort | xargs sha256sum) >"$TMP/without_align.sha256"
if [ "${1:-}" = --record ]; then
  cp "$TMP/without_align.sha256" "$sums"
  echo "recorded $(wc -l <"$sums") checksums in $sums"
  exit 0
fi
checks=$((checks + 1))
diff "$sums" "$TMP/without_align.sha256" >"$TMP/sums.diff" ||
  fail "outputs without --align differ from those before it: $(head -20 "$TMP/sums.diff")"

# With --align: the Match column last in every table, the aligned pairs named with their score.
# has_match NAME: the csv's last column is Match, with rows of each kind the case must have.
has_match() {
  local csv
  csv=$(ls "$TMP/out/$1"/*.csv | head -1)
  checks=$((checks + 1))
  head -1 "$csv" | grep -q ',Match$' || fail "$1: no Match column last: $(head -1 "$csv")"
  for kind in ',name$' ',"\?aligned (0\.[0-9][0-9]\|,"\?aligned (1\.00' ',unmatched$'; do
    grep -q "$kind" "$csv" || fail "$1: no Match value like $kind"
  done
}
compare statistics_align -tp $sm/statistics/target/dump.json -gp $sm/statistics/golden/dump.json --align --csv --xlsx --json --html
has_match statistics_align
checks=$((checks + 1))
grep -q '"Match"' "$TMP/out/statistics_align/"*TS.json || fail "json: no Match in its header"
grep -q '<t>Match</t>' "$TMP/out/statistics_align/"*.xlsx.d/xl/worksheets/sheet1.xml || fail "xlsx: no Match header"
grep -q '"name":"Match"' "$TMP/out/statistics_align/"compare_report_TS.html || fail "html: no Match column"
compare md5_align -tp $sm/md5/target/dump.json -gp $sm/md5/golden/dump.json --align --csv
has_match md5_align
compare tensor_align -tp $sm/tensor/target/dump.json -gp $sm/tensor/golden/dump.json --align --csv
has_match tensor_align
compare mindspore_align -tp align/mindspore/target/dump.json -gp align/shift/golden/dump.json --align --csv
has_match mindspore_align
compare mindspore_am_align -tp align/mindspore/target/dump.json -gp align/shift/golden/dump.json -am --align --csv
checks=$((checks + 1))
grep -q ',mapping$' "$TMP/out/mindspore_am_align/"*.csv || fail "-am --align: no row matched by mapping"
compare da_align -tp dist2/npu_t/step0 -gp dist2/bench_t/step0 -da --align --csv
checks=$((checks + 1))
ls "$TMP/out/da_align/"compare_result_rank1_TS.json >/dev/null || fail "-da --align: no per-rank json"
head -1 "$TMP/out/da_align/"compare_result_rank1_TS.csv | grep -q ',Match$' || fail "-da --align: no Match column"

# Usage errors.
run "$cmp" -tp $sm/statistics/target/dump.json -gp $sm/statistics/golden/dump.json --align-threshold 0.9 -o "$TMP/x"
expect_code 2
expect_err "--align-threshold is --align's"
run "$cmp" -tp $sm/statistics/target/dump.json -gp $sm/statistics/golden/dump.json --align --align-threshold 1.5 -o "$TMP/x"
expect_code 2
run "$cmp" -tp dist2/npu_t -gp dist2/bench_t --rank 0 --align -o "$TMP/x"
expect_code 2
expect_err "--align"
finish
