#!/usr/bin/env bash
# msprobe-dump statistic end to end: a MindSpore-style statistic.csv for the fixture npy kernel dump
# (npy, raw and mapping.csv-named files), each value checked against numpy's
# (tests/data/kernel/expected_statistic.txt); malformed inputs give one error line and exit 3.
source "$(dirname "$0")/lib.sh"
dump=$MSPROBE_BIN/msprobe-dump
data=$MSPROBE_ROOT/tests/data/kernel

run "$dump" statistic --help
expect_code 0
cp -r "$data/npu" "$TMP/tree"
run "$dump" statistic "$TMP/tree"
expect_code 0
csv=$TMP/tree/rank_0/Net/0/0/statistic.csv
[ -f "$csv" ] || fail "no statistic.csv written"
checks=$((checks + 1))
[ "$(head -1 "$csv")" = "Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,Max Value,Min Value,Avg Value,Count,Nan Count,Negative Inf Count,Positive Inf Count,Zero Count,L2Norm Value" ] \
  || fail "header: $(head -1 "$csv")"
grep -qF 'Add,Default_Add-op0,0,0,100,input,0,48,float32,"(3,4)",' "$csv" || fail "Add row: $(grep Default_Add "$csv")"
checks=$((checks + 1))
# Every row against numpy: the quoted shape is cut out, then fields compared (numbers within 1e-12).
sed 's/"([^"]*)"/SHAPE/' "$csv" | tail -n +2 | awk -F, -v expected="$data/expected_statistic.txt" '
  function same(a, b) {
    if (a == b) return 1
    if (b == "nan" || a == "nan") return 0
    d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
    return d <= 1e-12 * m + 1e-15
  }
  BEGIN { while ((getline line < expected) > 0) { split(line, f, " "); want[f[1] " " f[2] " " f[3] " " f[4]] = line } }
  {
    key = $2 " " $5 " " $6 " " $7
    if (!(key in want)) { print "unexpected row " key; bad = 1; next }
    split(want[key], w, " ")
    got[1] = $11; got[2] = $12; got[3] = $13; got[4] = $14; got[5] = $15; got[6] = $16; got[7] = $17; got[8] = $18; got[9] = $19
    for (i = 1; i <= 9; i++) if (!same(got[i], w[i + 4])) { print key " field " i ": " got[i] " != " w[i + 4]; bad = 1 }
    if ($20 != "" || NF != 20) { print key ": no trailing comma"; bad = 1 }
    seen++
  }
  END { if (seen != 9) { print "rows: " seen; bad = 1 } exit bad }' || fail "values differ from numpy"
checks=$((checks + 1))

# An existing statistic.csv is kept unless --force.
run "$dump" statistic "$TMP/tree"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "exists already"
run "$dump" statistic --force "$TMP/tree"
expect_code 0

# Malformed inputs.
run "$dump" statistic "$TMP/missing"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "no such directory"
mkdir -p "$TMP/empty/rank_0"
run "$dump" statistic "$TMP/empty"
expect_code 3
expect_err "no kernel dump tensor files found"
mkdir -p "$TMP/bad/rank_0/step_0"
printf 'abcdef' >"$TMP/bad/rank_0/step_0/Sub.op.0.0.1.input.0.ND.FLOAT"
run "$dump" statistic "$TMP/bad"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "not a whole number of 32-bit elements"
printf 'a.npy,Add.op.0.0.1.output.0.ND.FLOAT.npy\nx.npy,y,z\n' >"$TMP/bad/rank_0/step_0/mapping.csv"
run "$dump" statistic "$TMP/bad"
expect_code 3
expect_err "mapping.csv: line 2: expected 2 fields"
rm "$TMP/bad/rank_0/step_0/mapping.csv" "$TMP/bad/rank_0/step_0/Sub.op.0.0.1.input.0.ND.FLOAT"
printf 'not an npy' >"$TMP/bad/rank_0/step_0/Add.op.0.0.1.input.0.ND.FLOAT.npy"
run "$dump" statistic "$TMP/bad"
expect_code 3
expect_one_error_line msprobe-dump
finish
