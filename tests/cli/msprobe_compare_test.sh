#!/usr/bin/env bash
# msprobe-compare end to end: flags, error contract, bundled samples, and byte-for-byte agreement with
# the CSV msprobe itself wrote for the shared 2-rank statistics dumps.
source "$(dirname "$0")/lib.sh"
cmp=$MSPROBE_BIN/msprobe-compare
samples=$MSPROBE_ROOT/samples/dist2

run "$cmp" --help
expect_code 0
expect_out "Examples:"
run "$cmp" --version
expect_code 0
run "$cmp" -tp "$samples/npu_t/step0"
expect_code 2
expect_one_error_line msprobe-compare
run "$cmp" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -da --json
expect_code 2
expect_one_error_line msprobe-compare
run "$cmp" -tp "$samples/npu_t/step0/rank0/dump.json" -gp "$samples/bench_t/step0"
expect_code 3
expect_one_error_line msprobe-compare
run "$cmp" -tp "$TMP/missing/dump.json" -gp "$samples/bench_t/step0/rank0/dump.json"
expect_code 3
expect_one_error_line msprobe-compare
# msprobe's other compare modes and flags are refused, naming the section of docs/compatibility.md
for mode in offline_data torchair atb offline_model bogus; do
  run "$cmp" -m "$mode" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/refused"
  expect_code 2
  expect_one_error_line msprobe-compare
  expect_err "Compare features of msprobe not in msprobe-compare"
done
run "$cmp" -m torchair -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" --rank 0 -o "$TMP/refused"
expect_code 2
expect_err "Compare features of msprobe not in msprobe-compare"
run "$cmp" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" --consistent_check -o "$TMP/refused"
expect_code 2
expect_one_error_line msprobe-compare
expect_err "the 'backend' parameter must be set to 'fsdp' or 'megatron'"
run "$cmp" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -fr rule.json -o "$TMP/refused"
expect_code 2
expect_one_error_line msprobe-compare
expect_err "offline_data"
[ ! -e "$TMP/refused" ] || fail "a refused run wrote $TMP/refused"

# the bundled samples: 2 ranks, tensor mode, csv + xlsx per rank with msprobe's names
run "$cmp" -tp "$samples/npu_t/step0" -gp "$samples/bench_t/step0" -o "$TMP/out"
expect_code 0
for rank in rank0 rank1; do
  ls "$TMP/out" | grep -qE "^compare_result_${rank}_[0-9]{14}\.csv$" || fail "no csv for $rank: $(ls "$TMP/out")"
  ls "$TMP/out" | grep -qE "^compare_result_${rank}_[0-9]{14}\.xlsx$" || fail "no xlsx for $rank: $(ls "$TMP/out")"
done
[ "$(ls "$TMP/out" | grep -vx summary.json | wc -l)" -eq 4 ] || fail "stray files in the output dir: $(ls "$TMP/out")"
expect_out ".csv"
head -1 "$TMP"/out/compare_result_rank0_*.csv | grep -q '^NPU Name,Bench Name,NPU Dtype,Bench Dtype,NPU Tensor Shape,Bench Tensor Shape,NPU Requires_grad,Bench Requires_grad,Cosine,EucDist,MaxAbsErr,MaxRelativeErr,One Thousandth Err Ratio,Five Thousandths Err Ratio,NPU max,NPU min,NPU mean,NPU l2norm,Bench max,Bench min,Bench mean,Bench l2norm,Requires_grad Consistent,Result,Err_message,NPU_Stack_Info,Data_name$' \
  || fail "tensor-mode header differs: $(head -1 "$TMP"/out/compare_result_rank0_*.csv)"

# a single rank, json files, --csv only, and the older -i compare.json form
run "$cmp" -i /dev/null
expect_code 3
# a compare.json that does not parse, or is not UTF-8: one line naming the file, where and why
printf '{"npu_path": "a",\n "bench_path": ' > "$TMP/cut.json"
run "$cmp" -i "$TMP/cut.json"
expect_code 3
expect_one_error_line msprobe-compare
expect_err "cut.json: invalid JSON, parse error at line 2, column 16: syntax error while parsing value - unexpected end of input"
printf '{"npu_path": "a\xff", "bench_path": "b"}' > "$TMP/latin1.json"
run "$cmp" -i "$TMP/latin1.json"
expect_code 3
expect_one_error_line msprobe-compare
expect_err "latin1.json: invalid JSON, parse error at line 1, column 16: syntax error while parsing value - invalid string: ill-formed UTF-8 byte"
checks=$((checks + 1))
! grep -q 'last read' <<<"$ERR" || fail "the error quotes the input's raw bytes: $ERR"
printf '{"npu_path": "a", "bench_path": 7}' > "$TMP/nobench.json"
run "$cmp" -i "$TMP/nobench.json"
expect_code 3
expect_err 'nobench.json: needs string keys "npu_path" and "bench_path"'
printf '{"npu_path": "%s", "bench_path": "%s"}' "$samples/npu_t/step0/rank1/dump.json" "$samples/bench_t/step0/rank1/dump.json" > "$TMP/compare.json"
run "$cmp" -i "$TMP/compare.json" -o "$TMP/single" --csv
expect_code 0
ls "$TMP/single" | grep -qE '^compare_result_[0-9]{14}\.csv$' || fail "single-pair name: $(ls "$TMP/single")"

# --attribute on the torch-made dumps of tests/data/recompute: the replaced gelu is the first cause
recompute=$MSPROBE_ROOT/tests/data/recompute
run "$cmp" -tp "$recompute/target_op/step0/rank0" -gp "$recompute/golden/step0/rank0" -o "$TMP/attr" --attribute
expect_code 0
expect_err "first cause: Functional.gelu.0.forward (op)"
grep -q '"kind": "op"' "$TMP/attr/summary.json" || fail "first_cause: $(cat "$TMP/attr/summary.json")"
checks=$((checks + 1))
run "$cmp" -tp "$recompute/target_input/step0/rank0" -gp "$recompute/golden/step0/rank0" -o "$TMP/attr_in" --attribute --csv
expect_code 0
expect_err "first cause: Functional.linear.1.forward (input: Functional.linear.1.forward.input.1)"
run "$cmp" -tp "$recompute/target_op/step0/rank0" -gp "$recompute/golden/step0/rank0" -o "$TMP/attr_da" --attribute -da
expect_code 2
expect_err "--attribute needs tensor metrics"
# --attribute recomputes: a MSPROBE_ISA naming no GEMM copy of this build is refused (docs/ops.md §4)
MSPROBE_ISA=avx9 run "$cmp" -tp "$recompute/target_op/step0/rank0" -gp "$recompute/golden/step0/rank0" -o "$TMP/attr_isa" --attribute
expect_code 2
expect_one_error_line msprobe-compare
expect_err "msprobe-compare: error: MSPROBE_ISA: no instruction set 'avx9' in this build (it has "
checks=$((checks + 1))
[ ! -e "$TMP/attr_isa" ] || fail "outputs after a refused MSPROBE_ISA: $(ls "$TMP/attr_isa")"

# outputs never land on inputs
run "$cmp" -tp "$recompute/target_op/step0/rank0" -gp "$recompute/golden/step0/rank0" -o "$recompute/golden/step0/rank0/out"
expect_code 3
expect_one_error_line msprobe-compare
expect_err "the output would land inside the input"
[ ! -e "$recompute/golden/step0/rank0/out" ] || fail "an output dir was made inside the input"
checks=$((checks + 1))
run "$cmp" -tp "$recompute/target_op/step0/rank0/dump.json" -gp "$recompute/golden/step0/rank0/dump.json" -o "$TMP/junit_on_input" --junit "$recompute/golden/step0/rank0/dump.json"
expect_code 3
expect_err "the output would overwrite the input"

# a tensor file missing or unreadable: msprobe's "unsupported" row, counted in summary.json and warned once
cp -r "$samples/npu_t/step0/rank0" "$TMP/holes" && chmod -R u+w "$TMP/holes"
rm "$TMP/holes/dump_tensor_data/Functional.linear.0.forward.input.1.pt"
printf garbage >"$TMP/holes/dump_tensor_data/Functional.linear.0.forward.input.0.pt"
run "$cmp" -q -tp "$TMP/holes" -gp "$samples/bench_t/step0/rank0" -o "$TMP/holes_out" --csv
expect_code 0
expect_err 'warning: 2 row(s) not compared: 0 target row(s) without a golden counterpart, 0 golden row(s) matched by no target row, 2 unreadable tensor(s) (first: '
[ "$(grep -c 'not compared' <<<"$ERR")" -eq 1 ] || fail "warned more than once: $ERR"
grep -q '"rows": 2' "$TMP/holes_out/summary.json" || fail "unreadable_tensors: $(cat "$TMP/holes_out/summary.json")"
checks=$((checks + 2))

# msprobe's command lines as typed: single-dash words are aliases, older flags, or refused
run "$cmp" -tp "$samples/npu_t/step0/rank0" -gp "$samples/bench_t/step0/rank0" -hl -o "$TMP/hl" --csv -q
expect_code 0
expect_err "msprobe-compare: warning: -hl is an older msprobe flag, ignored"
ls "$TMP"/hl/compare_result_*.csv >/dev/null || fail "-hl stopped the compare"
checks=$((checks + 1))
run "$cmp" -tp "$samples/npu_t/step0/rank0" -gp "$samples/bench_t/step0/rank0" -ofs
expect_code 2
expect_err 'msprobe-compare: error: -ofs: not a flag of this program; for -o with the value "fs", write -o fs'
[ ! -e fs ] || fail "-ofs wrote into ./fs"
checks=$((checks + 1))
run "$cmp" -tpp x
expect_code 2
expect_err "-tpp: not a flag of this program (did you mean -tp?)"
run "$cmp" --bogus
expect_code 2
expect_err "msprobe-compare: error: The following argument was not expected: --bogus"
run "$cmp" --help
expect_out "Usage: msprobe-compare [OPTIONS]"
printf '{"npu_path": "%s", "bench_path": "%s"}' "$samples/npu_t/step0/rank0/dump.json" "$samples/bench_t/step0/rank0/dump.json" >"$TMP/g2.json"
run "$cmp" --input_path "$TMP/g2.json" -f -s -c -out "$TMP/g2" --csv -q
expect_code 0
expect_err "-s is an older msprobe flag, ignored"
ls "$TMP"/g2/compare_result_*.csv >/dev/null || fail "G2 flags: $(ls "$TMP/g2")"
checks=$((checks + 1))

# -lm: a MindSpore run of a renamed copy of a PyTorch model (tests/data/layer_mapping/README.md)
lm=$MSPROBE_ROOT/tests/data/layer_mapping
run "$cmp" -q -tp "$lm/mindspore/dump.json" -gp "$lm/pytorch/dump.json" -o "$TMP/lm_no" --csv
expect_code 0
[ "$(grep -c ',N/A,' "$TMP"/lm_no/compare_result_*.csv)" -eq 35 ] || fail "without -lm: $(cut -d, -f1,2 "$TMP"/lm_no/*.csv)"
run "$cmp" -q -tp "$lm/mindspore/dump.json" -gp "$lm/pytorch/dump.json" -o "$TMP/lm" --csv -lm "$lm/layer_mapping.yaml"
expect_code 0
grep -q '^Cell.blocks.1.ffn.Dense.forward.0.output.0,Module.layers.1.mlp.Linear.forward.0.output.0,' "$TMP"/lm/compare_result_*.csv \
  || fail "-lm did not pair the renamed layer: $(cut -d, -f1,2 "$TMP"/lm/*.csv)"
grep -q '^Functional.dense.0.forward.input.0,Functional.linear.0.forward.input.0,' "$TMP"/lm/compare_result_*.csv \
  || fail "-lm did not pair the renamed api: $(cut -d, -f1,2 "$TMP"/lm/*.csv)"
[ "$(grep -c ',N/A,' "$TMP"/lm/compare_result_*.csv)" -eq 2 ] || fail "with -lm: $(cut -d, -f1,2 "$TMP"/lm/*.csv)"
printf 'Block: [attn\n' >"$TMP/bad_lm.yaml"
run "$cmp" -q -tp "$lm/mindspore/dump.json" -gp "$lm/pytorch/dump.json" -o "$TMP/lm_bad" -lm "$TMP/bad_lm.yaml"
expect_code 3
expect_one_error_line msprobe-compare
expect_err "bad_lm.yaml"
run "$cmp" -q -tp "$lm/pytorch/dump.json" -gp "$lm/pytorch/dump.json" -o "$TMP/lm_pt" -lm
expect_code 3
expect_one_error_line msprobe-compare
checks=$((checks + 4))

# msprobe's own CSVs for the shared 2-rank statistics dumps: byte for byte
if have_shared; then
  da=$SHARED_DATA/msprobe_samples/dist2_da
  run "$cmp" -tp "$da/target/step0" -gp "$da/golden/step0" -o "$TMP/da" --csv
  expect_code 0
  for rank in rank0 rank1; do
    ours=$(ls "$TMP"/da/compare_result_${rank}_*.csv)
    theirs=$(ls "$da"/cmp/compare_result_${rank}_*.csv)
    cmp -s "$ours" "$theirs" || fail "$rank differs from msprobe: $(diff "$ours" "$theirs" | head -5)"
    checks=$((checks + 1))
  done
fi
finish
