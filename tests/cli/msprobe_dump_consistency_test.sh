#!/usr/bin/env bash
# msprobe-dump consistency (docs/consistency.md) on real 4-rank msprobe dumps (tests/data/consistency):
# nothing found in the intact dumps (exit 0); one rank's all_reduce result changed in its last digits
# named (exit 1, summary.json's first_inconsistency); a pair's disagreement names both; a parameter;
# an md5; a tensor file changed, found only with --recompute-stats; one-line errors.
source "$(dirname "$0")/lib.sh"
dump=$MSPROBE_BIN/msprobe-dump
data=$MSPROBE_ROOT/tests/data/consistency

# edit DUMP_JSON KEY SIDE INDEX STAT: that statistic changed in its last digit.
edit() { python3 "$data/edit_stat.py" "$@" || fail "edit $*"; }
# summary FIELD: a field of $1/summary.json, as Python prints it.
summary() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {'d': d}))" "$1/summary.json" "$2"; }

# The intact dumps: exit 0, no inconsistency, first_inconsistency null.
run "$dump" consistency "$data/stat4" -o "$TMP/intact"
expect_code 0
expect_err "2 step(s), 4 rank(s), 8 dump(s): 0 inconsistency(ies)"
# stdout: the paths written, nothing else.
[ "$(printf '%s\n' "$OUT" | sed 's/consistency_result_[0-9]*/R/')" = "$(printf '%s\n' "$TMP/intact/R.csv" "$TMP/intact/R.xlsx" "$TMP/intact/summary.json")" ] \
  || fail "stdout is not the three paths: $OUT"
checks=$((checks + 1))
[ "$(summary "$TMP/intact" 'd["first_inconsistency"], d["counts"]["inconsistencies"], d["gate"]')" = "(None, 0, 'passed')" ] \
  || fail "intact summary: $(summary "$TMP/intact" 'd')"
[ "$(grep -c '^inconsistency,' "$TMP"/intact/consistency_result_*.csv)" = 0 ] || fail "intact csv has inconsistencies"
ls "$TMP"/intact/consistency_result_*.xlsx >/dev/null || fail "no xlsx"
checks=$((checks + 3))

# Rank 2's result of the fourth all_reduce of step 1 (group 0-3) changed in its last digit.
cp -r "$data/stat4" "$TMP/stat4"
edit "$TMP/stat4/step1/rank2/dump.json" Distributed.all_reduce.3.forward output 0 Norm
run "$dump" consistency "$TMP/stat4" -o "$TMP/one"
expect_code 1
expect_err "2 step(s), 4 rank(s), 8 dump(s): 1 inconsistency(ies)"
expect_err "first inconsistency: step 1, rank 2, Distributed.all_reduce.3.forward.output.0 (3 of the group's 4 ranks agree on another value)"
[ "$(summary "$TMP/one" 'd["first_inconsistency"]')" = "{'step': 1, 'rank': 2, 'api': 'Distributed.all_reduce.3.forward', 'name': 'Distributed.all_reduce.3.forward.output.0', 'reason': \"3 of the group's 4 ranks agree on another value\"}" ] \
  || fail "first_inconsistency: $(summary "$TMP/one" 'd["first_inconsistency"]')"
row=$(grep '^inconsistency,' "$TMP"/one/consistency_result_*.csv)
[[ "$row" == "inconsistency,1,2,Distributed.all_reduce.3.forward,Distributed.all_reduce.3.forward.output.0,collective result,0-3,"* ]] \
  || fail "csv row: $row"
checks=$((checks + 2))

# -q (README "Output streams"): no paths, no summary; the reason for the exit code stays.
run "$dump" consistency -q "$TMP/stat4" -o "$TMP/quiet"
expect_code 1
[ -z "$OUT" ] || fail "-q printed on stdout: $OUT"
expect_err_line "first inconsistency: step 1, rank 2, Distributed.all_reduce.3.forward.output.0 (3 of the group's 4 ranks agree on another value)"
checks=$((checks + 1))

# A pair's all_reduce (group 2,3) that disagrees: both ranks are named.
cp -r "$data/stat4" "$TMP/pair"
edit "$TMP/pair/step0/rank3/dump.json" Distributed.all_reduce.0.forward output 0 Mean
run "$dump" consistency "$TMP/pair/step0" -o "$TMP/pair_out"
expect_code 1
rows=$(python3 -c 'import csv,sys; [print("|".join(r[:7])) for r in csv.reader(open(sys.argv[1])) if r[0] == "inconsistency"]' \
       "$TMP"/pair_out/consistency_result_*.csv)
[ "$rows" = "inconsistency|0|2|Distributed.all_reduce.0.forward|Distributed.all_reduce.0.forward.output.0|collective result|2,3
inconsistency|0|3|Distributed.all_reduce.0.forward|Distributed.all_reduce.0.forward.output.0|collective result|2,3" ] || fail "pair rows: $rows"
expect_err "first inconsistency: step 0, rank 2, Distributed.all_reduce.0.forward.output.0 (differs from rank 3; a group of 2 cannot tell which is wrong)"

# A parameter at a forward call, kept alike by the all_reduce of its gradient.
cp -r "$data/stat4" "$TMP/param"
edit "$TMP/param/step1/rank1/dump.json" Module.fc1.Linear.forward.0 parameters weight Max
run "$dump" consistency "$TMP/param" -o "$TMP/param_out"
expect_code 1
expect_err "first inconsistency: step 1, rank 1, Module.fc1.Linear.forward.0.parameters.weight (3 of the group's 4 ranks agree on another value)"
run "$dump" consistency "$TMP/param" -o "$TMP/param_none" --data-parallel none
expect_code 0

# Tensor dumps: rank 2's all_reduce result file changed by one ulp in one element (torch); its
# json is left as it was, so only --recompute-stats sees it.
run "$dump" consistency "$data/tensor4" -o "$TMP/t_intact" --recompute-stats
expect_code 0
cp -r "$data/tensor4" "$TMP/tensor4"
/usr/bin/python3 - "$TMP/tensor4/step0/rank2/dump_tensor_data/Distributed.all_reduce.1.forward.output.0.pt" <<'PY' 2>/dev/null
import sys, torch
t = torch.load(sys.argv[1])
t.view(-1)[5] = torch.nextafter(t.view(-1)[5], torch.tensor(float("inf")))
torch.save(t, sys.argv[1])
PY
if [ $? -eq 0 ]; then
  run "$dump" consistency "$TMP/tensor4" -o "$TMP/t_json"
  expect_code 0
  run "$dump" consistency "$TMP/tensor4" -o "$TMP/t_re" --recompute-stats
  expect_code 1
  expect_err "first inconsistency: step 0, rank 2, Distributed.all_reduce.1.forward.output.0 (3 of the group's 4 ranks agree on another value)"
  [ "$(summary "$TMP/t_re" 'd["mode"]')" = "tensor (statistics and CRC-32 recomputed from the tensor files)" ] || fail "mode"
  checks=$((checks + 1))
else
  echo "note: no torch in /usr/bin/python3; the tensor-file edit is not checked"
fi

# md5 dumps: the CRCs must agree too; rank 1's all_reduce result CRC changed in its last digit.
run "$dump" consistency "$data/md5_4" -o "$TMP/md5_intact"
expect_code 0
[ "$(summary "$TMP/md5_intact" 'd["mode"]')" = md5 ] || fail "md5 mode"
cp -r "$data/md5_4" "$TMP/md5"
edit "$TMP/md5/step0/rank1/dump.json" Distributed.all_reduce.2.forward output 0 md5
run "$dump" consistency "$TMP/md5" -o "$TMP/md5_out"
expect_code 1
expect_err "first inconsistency: step 0, rank 1, Distributed.all_reduce.2.forward.output.0 (3 of the group's 4 ranks agree on another value)"
checks=$((checks + 1))

# --fail-on suspect: the intact dumps' suspects fail the gate.
run "$dump" consistency "$data/stat4" -o "$TMP/suspect" --fail-on suspect
expect_code 1
[ "$(summary "$TMP/suspect" 'd["first_inconsistency"], d["gate"]')" = "(None, 'failed')" ] || fail "fail-on suspect summary"
checks=$((checks + 1))

# Errors: one line, exit 3 (input) or 2 (usage).
run "$dump" consistency "$TMP/missing" -o "$TMP/x"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "no such directory"
run "$dump" consistency "$data/stat4/step0/rank0" -o "$TMP/x"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "one rank's dump: the check compares ranks; give the step folder above it"
mkdir -p "$TMP/lone/rank0" && cp "$data/stat4/step0/rank0/dump.json" "$TMP/lone/rank0/"
run "$dump" consistency "$TMP/lone" -o "$TMP/x"
expect_code 3
expect_one_error_line msprobe-dump
expect_err "one rank in every step"
run "$dump" consistency "$data/stat4" -o "$TMP/x" --data-parallel 0-3/3-7
expect_code 3
expect_one_error_line msprobe-dump
expect_err "rank 3 is in two groups"
run "$dump" consistency "$data/stat4" -o "$TMP/x" --fail-on everything
expect_code 2

# Nothing to check (two ranks of an L0 dump: no collective, no parameter group, too few ranks for a
# z-score) is not a pass: exit 1, why on stderr even under -q, the gate failed in summary.json.
run "$dump" consistency -q "$MSPROBE_ROOT/tests/data/trend/real/r_l0_stat" -o "$TMP/nothing"
expect_code 1
expect_err_line "nothing checked: collective results: no all_reduce, all_gather or broadcast result in the dumps; parameters: 0 of 24 parameter(s) had their gradient reduced by a recorded collective, which gave their group; parameter gradients: not checked: msprobe records each rank's gradient before it is reduced (--grads-reduced when they are recorded after); z-scores: fewer than 3 ranks hold each argument"
[ "$(summary "$TMP/nothing" 'd["nothing_checked"], d["gate"], d["counts"]["inconsistencies"]')" = "(True, 'failed', 0)" ] \
  || fail "nothing-checked summary: $(summary "$TMP/nothing" 'd')"
checks=$((checks + 1))

# A rank folder without its dump.json (an interrupted rank) is not checked: the others are, their files
# written, and the run exits 1 saying which, even under -q.
cp -r "$data/stat4" "$TMP/interrupted" && chmod -R u+w "$TMP/interrupted"
rm "$TMP/interrupted/step1/rank3/dump.json"
run "$dump" consistency -q "$TMP/interrupted" -o "$TMP/int"
expect_code 1
expect_err "msprobe-dump: warning: $TMP/interrupted/step1/rank3: no dump.json; passed over"
expect_err "1 rank folder(s) not checked: no dump.json (was the dump interrupted?); first: $TMP/interrupted/step1/rank3"
[ "$(summary "$TMP/int" 'd["ranks_without_dump_json"], d["gate"], d["counts"]["ranks"]')" = "(['$TMP/interrupted/step1/rank3'], 'failed', 4)" ] \
  || fail "interrupted-rank summary: $(summary "$TMP/int" 'd')"
checks=$((checks + 1))
finish
